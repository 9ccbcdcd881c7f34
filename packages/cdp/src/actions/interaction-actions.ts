/**
 * Interactions. click, hover, type and press are trusted input (Input.dispatch*, the driver kit's
 * sequences), so pages see real events with isTrusted and user activation; fill, select and scroll run
 * in the page bundle. All answer their effects.
 */
import { framedTrustedPage, runInFrame, trustedSteps, type TrustedCall } from '@bproxy/driver';
import type { PageAction } from '@bproxy/page';
import type { ElementTarget } from '@bproxy/protocol';
import type { PageTab } from '../driver/page-tab';
import { failOnDialog, withEffects } from '../driver/effects';
import { runPage } from '../driver/page-runner';
import type { ActionContext, DriverResult, HandlerDef } from './context';
import { trustedPage } from './trusted-page';

/** Finds and checks the element outside the effects watch, then the input inside it. */
async function trusted(ctx: ActionContext, call: TrustedCall): Promise<DriverResult<TrustedCall['action']>> {
  const tab = ctx.tab();
  const page = framedTrustedPage(trustedPage(tab, ctx.remaining), tab.frames.pages(ctx.remaining));
  const steps = trustedSteps(page, call);
  await steps.prepare();
  return (await withEffects(tab, () => steps.act(), ctx.remaining())).effects;
}

export const click: HandlerDef<'click'> = { run: (ctx, params) => trusted(ctx, { action: 'click', params }) };
export const hover: HandlerDef<'hover'> = { run: (ctx, params) => trusted(ctx, { action: 'hover', params }) };
export const drag: HandlerDef<'drag'> = { run: (ctx, params) => trusted(ctx, { action: 'drag', params }) };
export const drop: HandlerDef<'drop'> = { run: (ctx, params) => trusted(ctx, { action: 'drop', params }) };
export const type: HandlerDef<'type'> = { run: (ctx, params) => trusted(ctx, { action: 'type', params }) };
export const press: HandlerDef<'press'> = { run: (ctx, params) => trusted(ctx, { action: 'press', params }) };

/** A page action on its target: in the frame the target lies in, else in the top document. */
async function onTarget(
  ctx: ActionContext,
  tab: PageTab,
  action: PageAction,
  params: { target?: ElementTarget },
): Promise<unknown> {
  const inFrame = await runInFrame(tab.frames.pages(ctx.remaining), action, params);
  if (inFrame !== null) return inFrame.data;
  return runPage(tab, action, params, { timeoutMs: ctx.remaining(), checkHuman: true });
}

export const fill: HandlerDef<'fill'> = {
  async run(ctx, params) {
    const tab = ctx.tab();
    const work = (): Promise<unknown> => onTarget(ctx, tab, 'fill', params);
    return (await withEffects(tab, work, ctx.remaining())).effects;
  },
};

export const select: HandlerDef<'select'> = {
  async run(ctx, params) {
    const tab = ctx.tab();
    const work = (): Promise<unknown> => onTarget(ctx, tab, 'select', params);
    const { effects, value } = await withEffects(tab, work, ctx.remaining());
    const selected = (value as { selected?: unknown } | undefined)?.selected;
    return {
      ...effects,
      selected: Array.isArray(selected) ? selected.filter((s): s is string => typeof s === 'string') : [],
    };
  },
};

export const scroll: HandlerDef<'scroll'> = {
  async run(ctx, params) {
    const tab = ctx.tab();
    const work = onTarget(ctx, tab, 'scroll', params);
    return (await failOnDialog(tab, work, ctx.remaining())) as DriverResult<'scroll'>;
  },
};
