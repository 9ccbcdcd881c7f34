/** `click` and `hover`: actionability checks, then synthetic pointer input at the element's center. */
import type { PageContext } from '../context';
import { ensureActionable } from '../dom/actionability';
import { deepElementFromPoint } from '../dom/geometry';
import { resolveTarget } from '../dom/resolve';
import { pointerEnter, pressAndRelease, type MouseButton } from '../input/pointer';
import { optNumber, optString, reqTarget, type Params } from '../params';
import { PageError } from '../errors';
import { effects, type Effects } from './effects';

function button(p: Params): MouseButton {
  const value = optString(p, 'button') ?? 'left';
  if (value === 'left' || value === 'middle' || value === 'right') return value;
  throw new PageError('BAD_REQUEST', `params.button: expected left, middle or right, got "${value}"`);
}

function hoverOnto(ctx: PageContext, p: Params): { hit: Element; at: { x: number; y: number } } {
  const el = resolveTarget(reqTarget(p), ctx.registry);
  const point = ensureActionable(el, { enabled: false });
  const hit = deepElementFromPoint(el.ownerDocument, point.local.x, point.local.y) ?? el;
  pointerEnter(hit, point.local, ctx.hovered);
  ctx.hovered = hit;
  return { hit, at: point.local };
}

export function click(ctx: PageContext, p: Params): Effects {
  const el = resolveTarget(reqTarget(p), ctx.registry);
  const point = ensureActionable(el, { enabled: true });
  const hit = deepElementFromPoint(el.ownerDocument, point.local.x, point.local.y) ?? el;
  pointerEnter(hit, point.local, ctx.hovered);
  ctx.hovered = hit;
  pressAndRelease(hit, point.local, button(p), optNumber(p, 'clickCount') ?? 1);
  return effects();
}

export function hover(ctx: PageContext, p: Params): Effects {
  hoverOnto(ctx, p);
  return effects();
}
