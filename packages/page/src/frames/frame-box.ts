/**
 * `frameBox`: for a driver acting inside a cross-origin frame. Scrolls the frame element into view,
 * checks that a press at its centre reaches it (nothing covers it), and answers where the frame's
 * viewport starts, in this document's top-viewport CSS pixels: the frame's own points plus this offset
 * are points of the top viewport.
 */
import type { PageContext } from '../context';
import { ensureActionable } from '../dom/actionability';
import { isFrame } from '../dom/flat-tree';
import { frameOffset } from '../dom/geometry';
import { resolveTarget } from '../dom/resolve';
import { PageError } from '../errors';
import { reqTarget, type Params } from '../params';

export interface FrameBoxResult {
  x: number;
  y: number;
}

export function frameBox(ctx: PageContext, p: Params): FrameBoxResult {
  const el = resolveTarget(reqTarget(p), ctx.registry);
  if (!isFrame(el)) throw new PageError('BAD_REQUEST', `frameBox: <${el.localName}> is not a frame`);
  ensureActionable(el, { enabled: false });
  const rect = el.getBoundingClientRect();
  const style = el.ownerDocument.defaultView?.getComputedStyle(el);
  const offset = frameOffset(el.ownerDocument);
  return {
    x: offset.x + rect.left + el.clientLeft + parseFloat(style?.paddingLeft ?? '0'),
    y: offset.y + rect.top + el.clientTop + parseFloat(style?.paddingTop ?? '0'),
  };
}
