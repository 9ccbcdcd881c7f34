/**
 * tab.open, tab.close, tab.pin, tab.unpin. Pinning has no CDP equivalent (headless has no tab strip):
 * the driver keeps the flag, reports it back, and logs that it did not pin anything in the browser.
 */
import { failOnDialog, pageState } from '../driver/effects';
import { navigateTo } from '../driver/navigation';
import type { PageTab } from '../driver/page-tab';
import type { ActionContext, HandlerDef } from './context';

export const tabOpen: HandlerDef<'tab.open'> = {
  async run(ctx, params) {
    const browser = ctx.browser();
    const tab = await browser.openTab(ctx.allocateTabId(), {
      background: params.active === false,
      timeoutMs: ctx.remaining(),
    });
    try {
      // A page that needs a human is reported by the next action on it: tab.open must hand back the tab.
      if (params.url !== 'about:blank')
        await failOnDialog(tab, navigateTo(tab, params.url, 'load', ctx.remaining()), ctx.remaining());
      return { tabId: tab.tabId, ...(await pageState(tab, ctx.remaining())), pinned: false };
    } catch (error) {
      // Never leave a tab behind that the daemon was not told about.
      await browser.closeTab(tab, 2_000).catch(() => undefined);
      throw error;
    }
  },
};

export const tabClose: HandlerDef<'tab.close'> = {
  async run(ctx) {
    await ctx.browser().closeTab(ctx.tab(), ctx.remaining());
    return { closed: true };
  },
};

async function setPinned(
  ctx: ActionContext,
  tab: PageTab,
  pinned: boolean,
): Promise<{ tabId: number; url: string; title: string; pinned: boolean }> {
  tab.pinned = pinned;
  ctx.log.write(
    'info',
    `tab ${tab.tabId} ${pinned ? 'pinned' : 'unpinned'} as a driver flag only: CDP browsers have no pinned tabs`,
  );
  return { tabId: tab.tabId, ...(await pageState(tab, ctx.remaining())), pinned };
}

export const tabPin: HandlerDef<'tab.pin'> = {
  run: (ctx) => setPinned(ctx, ctx.tab(), true),
};

export const tabUnpin: HandlerDef<'tab.unpin'> = {
  run: (ctx) => setPinned(ctx, ctx.tab(), false),
};
