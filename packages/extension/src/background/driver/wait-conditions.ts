/**
 * The waits the extension answers from what the browser reports rather than from the page script
 * (WAIT_CONDITIONS): the tab's URL matching a pattern (`url`) and the tab having loaded (`load`). The
 * tab's state is read at once and again after each of its navigation events, with a slow poll for what
 * the platform does not report (a page restored from the back/forward cache).
 */
import { urlMatches, type DriverResult, type ForwardedParams } from '@bproxy/protocol';
import type { ActionCall, DriverContext } from './context';
import { fail } from './errors';
import { getTab } from './tab-state';

const POLL_MS = 250;

type WaitParams = ForwardedParams<'wait'>;

/** Whether this driver answers the wait itself: the browser-side conditions other than navigation. */
export function isBrowserWait(params: WaitParams): boolean {
  return params.url !== undefined || params.load === true;
}

export async function browserWait(
  ctx: DriverContext,
  params: WaitParams,
  call: ActionCall,
  tabId: number,
): Promise<DriverResult<'wait'>> {
  const started = ctx.now();
  const timeoutMs = Math.min(
    params.timeoutMs ?? Math.max(0, call.deadline - started),
    call.deadline - started,
  );
  const pattern = params.url;
  const what = pattern === undefined ? 'the page to load' : `a URL matching ${JSON.stringify(pattern)}`;
  for (;;) {
    const mark = ctx.nav.mark();
    const tab = await getTab(ctx, tabId, 'wait');
    const url = tab.url ?? '';
    if (tab.status === 'complete' && (pattern === undefined || urlMatches(url, pattern)))
      return { url, title: tab.title ?? '', waitedMs: ctx.now() - started };
    const left = started + timeoutMs - ctx.now();
    if (left <= 0)
      fail('WAIT_TIMEOUT', `waited ${timeoutMs} ms for ${what}; the page is at ${url.slice(0, 300)}`);
    await ctx.nav.waitFor(tabId, mark, () => true, Math.min(left, POLL_MS));
  }
}
