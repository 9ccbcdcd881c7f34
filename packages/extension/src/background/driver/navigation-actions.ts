/**
 * navigate, back, forward, reload: start the navigation through chrome.tabs, wait for it per
 * `waitUntil`, fail with NAVIGATION_FAILED when the browser shows an error page or has no history
 * entry, then check the new page for a human wall. Answers { url, title }.
 */
import type { ForwardedParams } from '@bproxy/protocol';
import { type ActionHandler, type DriverContext, tabIdOf } from './context';
import { DriverFailure, allowedUrl, fail, fromPlatformError, messageOf } from './errors';
import { assertNoDialog, assertNoHuman, pageState, waitForLoad } from './tab-state';

type NavigationAction = 'navigate' | 'back' | 'forward' | 'reload';
type Start<P> = (ctx: DriverContext, tabId: number, params: P) => Promise<void>;

/** The four navigations share their params' waitUntil and their result, the page they ended on. */
function navigation<A extends NavigationAction>(
  what: A,
  start: Start<ForwardedParams<A>>,
): ActionHandler<NavigationAction> {
  return {
    async run(ctx, params, call) {
      const tabId = tabIdOf(call);
      await ctx.dialogs.ensureAttached(tabId);
      await assertNoDialog(ctx, tabId, what);
      const waitUntil = params.waitUntil ?? 'load';
      const mark = ctx.nav.mark();
      // The table hands each handler its own action's params.
      await start(ctx, tabId, params as ForwardedParams<A>);
      if (waitUntil === 'none') return pageState(ctx, tabId, what);
      await waitForLoad(ctx, call, tabId, mark, waitUntil, what);
      await assertNoHuman(ctx, tabId);
      return pageState(ctx, tabId, what);
    },
  };
}

function historyStart(
  what: NavigationAction,
  go: (ctx: DriverContext, tabId: number) => Promise<void>,
): Start<unknown> {
  return async (ctx, tabId) => {
    try {
      await go(ctx, tabId);
    } catch (error) {
      if (error instanceof DriverFailure) throw error;
      const message = messageOf(error);
      if (/cannot find a (next|previous) page in history/i.test(message)) {
        fail('NAVIGATION_FAILED', `${what}: there is no history entry to go to`);
      }
      throw new DriverFailure(fromPlatformError(error, what));
    }
  };
}

const navigate = navigation('navigate', async (ctx, tabId, params) => {
  const url = allowedUrl(params.url, 'navigate');
  try {
    await ctx.chrome.tabs.update(tabId, { url });
  } catch (error) {
    throw new DriverFailure(fromPlatformError(error, 'navigate'));
  }
});

interface NavigationHistory {
  currentIndex: number;
  entries: { id: number }[];
}

/**
 * Back and forward by one history entry. Through the debugger when attached: chrome.tabs.goBack skips
 * entries the browser marks skippable (pages that never had a user gesture), which is every page an
 * agent drove, so it would report "no history" where a person would simply go back.
 */
function stepHistory(what: 'back' | 'forward'): (ctx: DriverContext, tabId: number) => Promise<void> {
  const step = what === 'back' ? -1 : 1;
  return async (ctx, tabId) => {
    if (!ctx.dialogs.isAttached(tabId)) {
      await (what === 'back' ? ctx.chrome.tabs.goBack(tabId) : ctx.chrome.tabs.goForward(tabId));
      return;
    }
    const history = (await ctx.chrome.debugger.sendCommand(
      { tabId },
      'Page.getNavigationHistory',
    )) as NavigationHistory;
    const entry = history.entries[history.currentIndex + step];
    if (!entry) fail('NAVIGATION_FAILED', `${what}: there is no history entry to go to`);
    await ctx.chrome.debugger.sendCommand({ tabId }, 'Page.navigateToHistoryEntry', { entryId: entry.id });
  };
}

// Going back twice is not the same as once: the protocol marks back and forward not resumable.
export const NAVIGATION_ACTIONS = {
  navigate,
  back: navigation('back', historyStart('back', stepHistory('back'))),
  forward: navigation('forward', historyStart('forward', stepHistory('forward'))),
  reload: navigation(
    'reload',
    historyStart('reload', (ctx, tabId) => ctx.chrome.tabs.reload(tabId)),
  ),
} as const;
