/**
 * Reading a tab's state and waiting for its loads: the pieces tab, navigation and page actions share.
 * A load wait ends on the navigation's own event, on a dialog (which would block the load forever),
 * or at the deadline; a slow poll of the tab's status covers events the platform did not send
 * (a page restored from the back/forward cache).
 */
import { makeError, type DriverTab } from '@bproxy/protocol';
import type { Tab } from '../../chrome-api';
import type { ActionCall, DriverContext } from './context';
import { DriverFailure, fail, fromPlatformError } from './errors';
import type { OpenDialog } from './dialog-tracker';
import type { NavEvent } from './navigation-tracker';

const STATUS_POLL_MS = 250;

export async function getTab(ctx: DriverContext, tabId: number, what: string): Promise<Tab> {
  try {
    return await ctx.chrome.tabs.get(tabId);
  } catch (error) {
    throw new DriverFailure(fromPlatformError(error, what));
  }
}

export function driverTab(tab: Tab, tabId: number): DriverTab {
  return { tabId, url: tab.url ?? tab.pendingUrl ?? '', title: tab.title ?? '', pinned: tab.pinned };
}

export async function pageState(
  ctx: DriverContext,
  tabId: number,
  what: string,
): Promise<{ url: string; title: string }> {
  const tab = await getTab(ctx, tabId, what);
  return { url: tab.url ?? '', title: tab.title ?? '' };
}

export function dialogOpenError(dialog: OpenDialog, what: string): DriverFailure {
  return new DriverFailure(
    makeError(
      'DIALOG_OPEN',
      `${what}: a ${dialog.type} dialog is open ("${dialog.message.slice(0, 200)}"); answer it with the dialog action`,
      {
        details: { dialog: { type: dialog.type, message: dialog.message } },
      },
    ),
  );
}

/** Refuses with DIALOG_OPEN when the tab shows a dialog: the page cannot run anything until it is answered. */
export async function assertNoDialog(ctx: DriverContext, tabId: number, what: string): Promise<void> {
  const dialog = await ctx.dialogs.current(tabId);
  if (dialog) throw dialogOpenError(dialog, what);
}

/**
 * Waits for the navigation started after `mark` to reach `waitUntil`. NAVIGATION_FAILED on a load
 * error, DIALOG_OPEN when a dialog blocks it, TIMEOUT at the deadline. Navigation events `ignore`
 * passes do not count.
 */
export async function waitForLoad(
  ctx: DriverContext,
  call: ActionCall,
  tabId: number,
  mark: number,
  waitUntil: 'load' | 'domcontentloaded',
  what: string,
  ignore: (event: NavEvent) => boolean = () => false,
): Promise<void> {
  const budget = Math.max(0, call.deadline - ctx.now());
  const dialog = ctx.dialogs.nextOpening(tabId);
  let polling = true;
  const polled = (async () => {
    while (polling) {
      await new Promise((r) => setTimeout(r, STATUS_POLL_MS));
      if (!polling) return;
      const tab = await ctx.chrome.tabs.get(tabId).catch(() => null);
      if (!polling) return;
      if (!tab) return fail('TAB_NOT_FOUND', `${what}: the tab was closed while it loaded`);
      const committed = ctx.nav.since(tabId, mark).some((e) => e.kind === 'committed' && !ignore(e));
      if (committed && tab.status === 'complete') return;
    }
  })();
  polled.catch(() => {}); // settled by the race below, or ignored once the wait is over
  try {
    // A dialog that opened before the listener above existed would otherwise block the wait unseen.
    const already = await ctx.dialogs.current(tabId);
    if (already) throw dialogOpenError(already, what);
    const outcome = await Promise.race([
      ctx.nav
        .waitForLoad(tabId, mark, waitUntil, budget, ignore)
        .then((event) => ({ kind: 'nav' as const, event })),
      dialog.opened.then((d) => ({ kind: 'dialog' as const, dialog: d })),
      polled.then(() => ({ kind: 'polled' as const })),
    ]);
    if (outcome.kind === 'dialog') throw dialogOpenError(outcome.dialog, what);
    if (outcome.kind === 'nav') {
      if (outcome.event === null)
        fail('TIMEOUT', `${what}: the page did not finish loading before the deadline`);
      if (outcome.event.kind === 'error') {
        fail(
          'NAVIGATION_FAILED',
          `${what}: could not load ${outcome.event.url} (${outcome.event.error ?? 'error'})`,
          {
            details: { url: outcome.event.url, error: outcome.event.error },
          },
        );
      }
    }
  } finally {
    polling = false;
    dialog.cancel();
  }
}

/** HUMAN_REQUIRED when the page now in the tab needs a person (after a navigation). */
export async function assertNoHuman(ctx: DriverContext, tabId: number): Promise<void> {
  await ctx.page.assertNoHuman(tabId);
}
