/**
 * Interactions. click, hover, type and press are trusted input (Input.dispatch*), so pages see real
 * events with isTrusted; fill, select and scroll run in the page bundle. All answer their effects.
 */
import { fail } from '@bproxy/driver';
import { failOnDialog, withEffects } from '../driver/effects';
import { approach, mouseClick, mouseMove, pressCombo, typeText } from '../driver/input';
import { parseCombo } from '../driver/keys';
import { runPage } from '../driver/page-runner';
import { checkHuman, focusTarget, locate, requireTarget } from './focus';
import type { DriverResult, HandlerDef } from './context';

export const click: HandlerDef<'click'> = {
  async run(ctx, params) {
    const tab = ctx.tab();
    const target = requireTarget(params.target, 'click');
    const point = await locate(tab, target, ctx.remaining());
    const options = {
      button: params.button ?? 'left',
      clickCount: params.clickCount ?? 1,
      timeoutMs: ctx.remaining(),
    } as const;
    const press = async (): Promise<void> => {
      const { end, travelled } = await approach(tab.session, tab, point, ctx.remaining());
      // The page may change under a moving pointer (a hover menu opening over the target): check
      // the target again before pressing, and follow it if it moved.
      const again = travelled ? await locate(tab, target, ctx.remaining()) : point;
      const moved = again.x !== point.x || again.y !== point.y;
      await mouseClick(tab.session, tab, moved ? again : end, options);
    };
    return (await withEffects(tab, press, ctx.remaining())).effects;
  },
};

export const hover: HandlerDef<'hover'> = {
  async run(ctx, params) {
    const tab = ctx.tab();
    const point = await locate(tab, requireTarget(params.target, 'hover'), ctx.remaining(), false);
    return (
      await withEffects(tab, () => mouseMove(tab.session, tab, point, ctx.remaining()), ctx.remaining())
    ).effects;
  },
};

export const type: HandlerDef<'type'> = {
  async run(ctx, params) {
    const tab = ctx.tab();
    if (params.target !== undefined) await focusTarget(tab, params.target, ctx.remaining(), true);
    else await checkHuman(tab, ctx.remaining());
    return (
      await withEffects(tab, () => typeText(tab.session, params.text, ctx.remaining()), ctx.remaining())
    ).effects;
  },
};

export const press: HandlerDef<'press'> = {
  async run(ctx, params) {
    const combo = parseCombo(params.key);
    if (combo === undefined) {
      fail(
        'BAD_REQUEST',
        `params.key: unknown key "${params.key}"; use a key like Enter, Tab, Escape, ArrowDown, a or Control+A`,
      );
    }
    const tab = ctx.tab();
    if (params.target !== undefined) await focusTarget(tab, params.target, ctx.remaining(), false);
    else await checkHuman(tab, ctx.remaining());
    return (await withEffects(tab, () => pressCombo(tab.session, combo, ctx.remaining()), ctx.remaining()))
      .effects;
  },
};

export const fill: HandlerDef<'fill'> = {
  async run(ctx, params) {
    const tab = ctx.tab();
    const work = (): Promise<unknown> =>
      runPage(tab, 'fill', params, { timeoutMs: ctx.remaining(), checkHuman: true });
    return (await withEffects(tab, work, ctx.remaining())).effects;
  },
};

export const select: HandlerDef<'select'> = {
  async run(ctx, params) {
    const tab = ctx.tab();
    const work = (): Promise<unknown> =>
      runPage(tab, 'select', params, { timeoutMs: ctx.remaining(), checkHuman: true });
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
    const work = runPage(tab, 'scroll', params, { timeoutMs: ctx.remaining(), checkHuman: true });
    return (await failOnDialog(tab, work, ctx.remaining())) as DriverResult<'scroll'>;
  },
};
