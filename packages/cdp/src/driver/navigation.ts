/**
 * Loading a URL or a history entry and waiting for the document the caller asked for (commit,
 * DOMContentLoaded or load), from the tab's own event state so no event can slip past a late listener.
 */
import { CdpProtocolError } from '../cdp/errors';
import { fail } from '@bproxy/driver';
import type { PageTab } from './page-tab';

export type WaitUntil = 'load' | 'domcontentloaded' | 'none';

const LIFECYCLE_NAME: Record<Exclude<WaitUntil, 'none'>, string> = {
  load: 'load',
  domcontentloaded: 'DOMContentLoaded',
};

export async function navigateTo(
  tab: PageTab,
  url: string,
  waitUntil: WaitUntil,
  timeoutMs: number,
): Promise<void> {
  const stops = tab.stops;
  let reply;
  try {
    reply = await tab.session.send('Page.navigate', { url }, timeoutMs);
  } catch (error) {
    if (error instanceof CdpProtocolError) fail('NAVIGATION_FAILED', `${url}: ${error.message}`);
    throw error;
  }
  if (reply.errorText !== undefined && reply.errorText !== '')
    fail('NAVIGATION_FAILED', `${url}: ${reply.errorText}`);
  // No loaderId: a same-document navigation (a #fragment), complete once Page.navigate answers.
  if (waitUntil === 'none' || reply.loaderId === undefined) return;
  await waitForLifecycle(tab, reply.loaderId, waitUntil, timeoutMs, stops);
}

/** back (-1) or forward (+1). */
export async function goHistory(
  tab: PageTab,
  delta: -1 | 1,
  waitUntil: WaitUntil,
  timeoutMs: number,
): Promise<void> {
  const history = await tab.session.send('Page.getNavigationHistory', {}, timeoutMs);
  const entry = history.entries[history.currentIndex + delta];
  if (entry === undefined)
    fail('NAVIGATION_FAILED', `there is no ${delta < 0 ? 'previous' : 'next'} page in this tab's history`);
  await afterCommit(
    tab,
    () => tab.session.send('Page.navigateToHistoryEntry', { entryId: entry.id }, timeoutMs),
    waitUntil,
    timeoutMs,
  );
}

export async function reload(tab: PageTab, waitUntil: WaitUntil, timeoutMs: number): Promise<void> {
  await afterCommit(tab, () => tab.session.send('Page.reload', {}, timeoutMs), waitUntil, timeoutMs);
}

/** Starts a navigation whose loader we only learn from its commit, then waits for its document. */
async function afterCommit(
  tab: PageTab,
  start: () => Promise<unknown>,
  waitUntil: WaitUntil,
  timeoutMs: number,
): Promise<void> {
  const before = tab.navigations;
  const commit = tab.waitUntil(
    () => (tab.navigations > before ? tab.lastCommit : undefined),
    timeoutMs,
    'waiting for the navigation to commit',
  );
  commit.promise.catch(() => undefined);
  try {
    await start();
  } catch (error) {
    commit.cancel();
    throw error;
  }
  if (waitUntil === 'none') {
    commit.cancel();
    return;
  }
  const committed = await commit.promise;
  if (committed.complete) return;
  await waitForLifecycle(tab, committed.loaderId, waitUntil, timeoutMs, tab.stops);
}

async function waitForLifecycle(
  tab: PageTab,
  loaderId: string,
  waitUntil: Exclude<WaitUntil, 'none'>,
  timeoutMs: number,
  stops: number,
): Promise<void> {
  const name = LIFECYCLE_NAME[waitUntil];
  // The page went on to an origin the site policy refuses (a script's redirect): that load never comes.
  const outcome = await tab.waitUntil(
    () => (tab.stops > stops ? 'stopped' : tab.hasLifecycle(loaderId, name) ? 'loaded' : undefined),
    timeoutMs,
    `waiting for ${name}`,
  ).promise;
  if (outcome === 'stopped') fail('NAVIGATION_FAILED', 'the page went to an origin the site policy refuses');
}
