/**
 * navigate, back, forward, reload: start the navigation, wait for the requested document, then check
 * whether the new page needs a human. A beforeunload dialog that stops the navigation is DIALOG_OPEN.
 */
import { failOnDialog, pageState } from '../driver/effects';
import { failIfHuman } from '../driver/page-runner';
import { goHistory, navigateTo, reload, type WaitUntil } from '../driver/navigation';
import type { PageTab } from '../driver/page-tab';
import type { ActionContext, HandlerDef } from './context';

async function afterNavigation(
  ctx: ActionContext,
  tab: PageTab,
  waitUntil: WaitUntil,
  work: Promise<void>,
): Promise<{ url: string; title: string }> {
  await failOnDialog(tab, work, ctx.remaining());
  if (waitUntil !== 'none') await failIfHuman(tab, ctx.remaining());
  return pageState(tab, ctx.remaining());
}

export const navigate: HandlerDef<'navigate'> = {
  needs: 'tab',
  async run(ctx, params) {
    const tab = ctx.tab();
    const waitUntil = params.waitUntil ?? 'load';
    return afterNavigation(ctx, tab, waitUntil, navigateTo(tab, params.url, waitUntil, ctx.remaining()));
  },
};

export const back: HandlerDef<'back'> = {
  needs: 'tab',
  async run(ctx, params) {
    const tab = ctx.tab();
    const waitUntil = params.waitUntil ?? 'load';
    return afterNavigation(ctx, tab, waitUntil, goHistory(tab, -1, waitUntil, ctx.remaining()));
  },
};

export const forward: HandlerDef<'forward'> = {
  needs: 'tab',
  async run(ctx, params) {
    const tab = ctx.tab();
    const waitUntil = params.waitUntil ?? 'load';
    return afterNavigation(ctx, tab, waitUntil, goHistory(tab, 1, waitUntil, ctx.remaining()));
  },
};

export const reloadPage: HandlerDef<'reload'> = {
  needs: 'tab',
  async run(ctx, params) {
    const tab = ctx.tab();
    const waitUntil = params.waitUntil ?? 'load';
    return afterNavigation(ctx, tab, waitUntil, reload(tab, waitUntil, ctx.remaining()));
  },
};
