/**
 * The tabs an action's page opened, for its effects. A page asks for a window (Page.windowOpen, on the
 * tab's own session, before the input that caused it is acknowledged); the browser creates the target
 * a moment later and ConnectedBrowser attaches to it and tells the daemon. So an action waits, briefly,
 * for every window its page asked for to be there — a popup the browser blocked never comes — and
 * names the tabs that are.
 */
import type { PageTab } from './page-tab';

/** Where the counts stood before the action. */
export interface OpenedMark {
  opened: number;
  windowOpens: number;
}

/** How long an action waits for the tabs its page asked for. */
const OPENED_CAP_MS = 3_000;

export async function openedSince(
  tab: PageTab,
  since: OpenedMark,
  timeoutMs: number,
): Promise<{ tabId: number; url: string }[]> {
  const budget = Math.min(timeoutMs, OPENED_CAP_MS);
  const asked = tab.windowOpens - since.windowOpens;
  if (asked > tab.opened.length - since.opened) {
    const appeared = tab.waitUntil(
      () => (tab.opened.length - since.opened >= asked ? true : undefined),
      budget,
      'the tabs the page opened',
    );
    await appeared.promise.catch(() => undefined);
  }
  const pending = tab.opened.slice(since.opened);
  if (pending.length === 0) return [];
  type Opened = { tabId: number; url: string };
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<(Opened | null)[]>((resolve) => {
    timer = setTimeout(() => resolve([]), budget);
  });
  const settled = await Promise.race([Promise.all(pending), late]).finally(() => clearTimeout(timer));
  return settled.filter((t): t is Opened => t !== null);
}
