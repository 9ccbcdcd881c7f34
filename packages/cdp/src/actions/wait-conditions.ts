/**
 * The waits the CDP driver answers from what the browser reports rather than from the page script
 * (WAIT_CONDITIONS): the page's URL matching a pattern (`url`) and the page having loaded (`load`).
 * Both re-check on every change the tab sees (commits, same-document moves, lifecycle events) and end
 * at once when the condition already holds.
 */
import { fail } from '@bproxy/driver';
import { urlMatches, type ForwardedParams } from '@bproxy/protocol';
import { CdpTimeoutError } from '../cdp/errors';
import { failOnDialog, pageState } from '../driver/effects';
import type { PageTab } from '../driver/page-tab';
import type { DriverResult } from './context';

type WaitParams = ForwardedParams<'wait'>;

/** The main frame's document has fired load (a same-document move or a restored page counts as loaded). */
function loaded(tab: PageTab): boolean {
  const commit = tab.lastCommit;
  if (tab.loading || commit === undefined) return false;
  return commit.complete || tab.hasLifecycle(commit.loaderId, 'load');
}

/** Whether this driver answers the wait itself: the browser-side conditions other than navigation. */
export function isBrowserWait(params: WaitParams): boolean {
  return params.url !== undefined || params.load === true;
}

export async function browserWait(
  tab: PageTab,
  params: WaitParams,
  remaining: () => number,
): Promise<DriverResult<'wait'>> {
  const started = Date.now();
  const timeoutMs = Math.min(params.timeoutMs ?? remaining(), remaining());
  const pattern = params.url;
  const check =
    pattern === undefined
      ? () => (loaded(tab) ? true : undefined)
      : () => (urlMatches(tab.url, pattern) && loaded(tab) ? true : undefined);
  const what = pattern === undefined ? 'the page to load' : `a URL matching ${JSON.stringify(pattern)}`;
  const done = tab.waitUntil(check, timeoutMs, `wait for ${what}`);
  try {
    await failOnDialog(tab, done.promise, timeoutMs);
  } catch (error) {
    if (error instanceof CdpTimeoutError)
      fail('WAIT_TIMEOUT', `waited ${timeoutMs} ms for ${what}; the page is at ${tab.url.slice(0, 300)}`);
    throw error;
  } finally {
    done.cancel();
  }
  return { ...(await pageState(tab, remaining())), waitedMs: Date.now() - started };
}
