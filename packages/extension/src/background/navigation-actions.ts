/**
 * navigate, back, forward, reload: start the navigation through chrome.tabs, wait for it per
 * `waitUntil`, fail with NAVIGATION_FAILED when the browser shows an error page or has no history
 * entry, then check the new page for a human wall. Answers { url, title }.
 */
import { type ActionCall, type ActionHandler, type DriverContext, tabIdOf } from './context';
import { DriverFailure, fail, fromPlatformError, messageOf } from './errors';
import { assertNoDialog, assertNoHuman, pageState, waitForLoad } from './tab-state';

type Start = (ctx: DriverContext, tabId: number, call: ActionCall) => Promise<void>;

function navigation(what: string, start: Start, resumable: boolean): ActionHandler {
  return {
    needsTab: true,
    resumable,
    async run(ctx, call) {
      const tabId = tabIdOf(call);
      await ctx.dialogs.ensureAttached(tabId);
      await assertNoDialog(ctx, tabId, what);
      const waitUntil = (call.params.waitUntil as 'load' | 'domcontentloaded' | 'none' | undefined) ?? 'load';
      const mark = ctx.nav.mark();
      await start(ctx, tabId, call);
      if (waitUntil === 'none') return pageState(ctx, tabId, what);
      await waitForLoad(ctx, call, tabId, mark, waitUntil, what);
      await assertNoHuman(ctx, tabId);
      return pageState(ctx, tabId, what);
    },
  };
}

function historyStart(what: string, go: (ctx: DriverContext, tabId: number) => Promise<void>): Start {
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

const navigate = navigation(
  'navigate',
  async (ctx, tabId, call) => {
    try {
      await ctx.chrome.tabs.update(tabId, { url: String(call.params.url) });
    } catch (error) {
      throw new DriverFailure(fromPlatformError(error, 'navigate'));
    }
  },
  true,
);

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

export const NAVIGATION_ACTIONS = {
  navigate,
  // Going back twice is not the same as once: never re-run after an interrupted first run.
  back: navigation('back', historyStart('back', stepHistory('back')), false),
  forward: navigation('forward', historyStart('forward', stepHistory('forward')), false),
  reload: navigation(
    'reload',
    historyStart('reload', (ctx, tabId) => ctx.chrome.tabs.reload(tabId)),
    true,
  ),
} as const;
