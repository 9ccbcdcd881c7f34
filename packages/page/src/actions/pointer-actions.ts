/** `click` and `hover`: actionability checks, then synthetic pointer input travelling to the element. */
import type { PageContext } from '../context';
import { assertReached, ensureActionable } from '../dom/actionability';
import type { Point } from '../dom/geometry';
import { resolveTarget } from '../dom/resolve';
import { movePointer, pressAndRelease, type MouseButton } from '../input/pointer';
import { optNumber, optString, reqTarget, type Params } from '../params';
import { PageError } from '../errors';
import { effects, type Effects } from './effects';

function button(p: Params): MouseButton {
  const value = optString(p, 'button') ?? 'left';
  if (value === 'left' || value === 'middle' || value === 'right') return value;
  throw new PageError('BAD_REQUEST', `params.button: expected left, middle or right, got "${value}"`);
}

/**
 * Moves onto the target; answers what the press would hit (the target or a descendant) and where.
 * The page may change under a moving pointer (a hover menu opening over the target): the target is
 * checked again where the pointer ended.
 */
function moveOnto(ctx: PageContext, p: Params, enabled: boolean): { hit: Element; at: Point } {
  const el = resolveTarget(reqTarget(p), ctx.registry);
  const point = ensureActionable(el, { enabled });
  const { at, under } = movePointer(ctx.pointer, el.ownerDocument, point.local);
  assertReached(el, at);
  return { hit: under ?? el, at };
}

export function click(ctx: PageContext, p: Params): Effects {
  const which = button(p);
  const clicks = optNumber(p, 'clickCount') ?? 1;
  const { hit, at } = moveOnto(ctx, p, true);
  pressAndRelease(hit, at, which, clicks);
  return effects();
}

export function hover(ctx: PageContext, p: Params): Effects {
  moveOnto(ctx, p, false);
  return effects();
}
