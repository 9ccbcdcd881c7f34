/**
 * tab.open, tab.close, tab.pin, tab.unpin through chrome.tabs. tab.open is the one browser-level action
 * that creates something, so it leaves a mark (request id → tab id) in chrome.storage.session right
 * after creating the tab: a worker restarted mid-way finds the tab instead of opening a second one.
 */
import { type ActionCall, type ActionHandler, type DriverContext, tabIdOf } from './context';
import { DriverFailure, allowedUrl, fail, fromPlatformError, messageOf } from './errors';
import { driverTab, getTab, waitForLoad } from './tab-state';

const openedKey = (requestId: string) => `opened:${requestId}`;

async function findOpened(ctx: DriverContext, requestId: string): Promise<number | null> {
  const got = await ctx.session.get(openedKey(requestId));
  const tabId = got[openedKey(requestId)];
  if (typeof tabId !== 'number') return null;
  const tab = await ctx.chrome.tabs.get(tabId).catch(() => null);
  return tab ? tabId : null;
}

async function createTab(
  ctx: DriverContext,
  call: ActionCall,
  url: string,
  active: boolean,
): Promise<number> {
  const checked = allowedUrl(url, 'tab.open');
  let tabId: number | undefined;
  try {
    // Blank first, as the CDP driver does: the debugger (dialogs, the console and network log) is on
    // the tab before the page's own document is requested, so that request is in its network list.
    const tab = await ctx.chrome.tabs.create({ url: 'about:blank', active });
    tabId = tab.id;
  } catch (error) {
    throw new DriverFailure(fromPlatformError(error, 'tab.open'));
  }
  if (tabId === undefined) fail('DRIVER_ERROR', 'tab.open: the browser created a tab without an id');
  ctx.tabs.add(tabId);
  await ctx.session.set({ [openedKey(call.request.id)]: tabId });
  // Before the page runs: an alert during its load must be seen, not hang the wait.
  await ctx.dialogs.ensureAttached(tabId);
  if (checked !== 'about:blank') {
    const mark = ctx.nav.mark();
    try {
      await ctx.chrome.tabs.update(tabId, { url: checked });
    } catch (error) {
      // Refused as tabs.create would have refused it: no tab is left behind.
      ctx.tabs.delete(tabId);
      await ctx.chrome.tabs.remove(tabId).catch(() => undefined);
      throw new DriverFailure(fromPlatformError(error, 'tab.open'));
    }
    try {
      // The blank page's own events may arrive after the mark: they are not this load.
      await waitForLoad(ctx, call, tabId, mark, 'load', 'tab.open', (e) => e.url === 'about:blank');
    } catch (error) {
      // The tab exists whatever its page did; the daemon must learn its id to own (and close) it.
      ctx.log.info('tab_open_load_incomplete', { tabId, error: messageOf(error) });
    }
  }
  return tabId;
}

const open: ActionHandler<'tab.open'> = {
  async run(ctx, params, call) {
    const url = params.url;
    // In the user's Chrome an agent's tab opens behind the one the user looks at, unless it asks for the
    // front (which the daemon's policy may have refused already). The debugger's focus emulation keeps
    // the page visible and its timers and animation frames running while it is driven (dialog-tracker.ts).
    const active = params.active === true;
    const existing = call.resumed ? await findOpened(ctx, call.request.id) : null;
    const tabId = existing ?? (await createTab(ctx, call, url, active));
    ctx.idle.touch(tabId);
    return driverTab(await getTab(ctx, tabId, 'tab.open'), tabId);
  },
};

const close: ActionHandler<'tab.close'> = {
  async run(ctx, _params, call) {
    const tabId = tabIdOf(call);
    try {
      await ctx.chrome.tabs.remove(tabId);
    } catch (error) {
      // Already gone (closed by the user, or by a previous run of this very request): nothing to do.
      if (/no tab with id/i.test(messageOf(error))) return { closed: false };
      throw new DriverFailure(fromPlatformError(error, 'tab.close'));
    }
    ctx.tabs.delete(tabId);
    return { closed: true };
  },
};

function pinHandler(what: 'tab.pin' | 'tab.unpin'): ActionHandler<'tab.pin' | 'tab.unpin'> {
  const pinned = what === 'tab.pin';
  return {
    async run(ctx, _params, call) {
      const tabId = tabIdOf(call);
      try {
        await ctx.chrome.tabs.update(tabId, { pinned });
      } catch (error) {
        throw new DriverFailure(fromPlatformError(error, what));
      }
      return driverTab(await getTab(ctx, tabId, what), tabId);
    },
  };
}

export const TAB_ACTIONS = {
  'tab.open': open,
  'tab.close': close,
  'tab.pin': pinHandler('tab.pin'),
  'tab.unpin': pinHandler('tab.unpin'),
} as const;
