/** `scroll`: the page or an element, by direction and amount or to the top, the bottom or an element. */
import type { ActionResult } from '@bproxy/protocol';
import type { PageContext } from '../context';
import { resolveTarget } from '../dom/resolve';
import { PageError } from '../errors';
import { optNumber, optString, optTarget, type Params } from '../params';

function scroller(el: Element | null): Element {
  return el ?? document.scrollingElement ?? document.documentElement;
}

/** The nearest element at or above `el` that can actually scroll; the page when none can. */
function scrollableFrom(el: Element): Element {
  for (let node: Element | null = el; node !== null; node = node.parentElement) {
    const style = node.ownerDocument.defaultView?.getComputedStyle(node);
    const overflow = `${style?.overflowY ?? ''} ${style?.overflowX ?? ''}`;
    const scrollable = node.scrollHeight > node.clientHeight || node.scrollWidth > node.clientWidth;
    if (scrollable && /auto|scroll|overlay/.test(overflow)) return node;
  }
  return scroller(el.ownerDocument.scrollingElement);
}

function position(el: Element): ActionResult<'scroll'> {
  const x = el.scrollLeft;
  const y = el.scrollTop;
  return { x, y, atTop: y <= 0, atBottom: y + el.clientHeight >= el.scrollHeight - 1 };
}

export function scroll(ctx: PageContext, p: Params): ActionResult<'scroll'> {
  const target = optTarget(p);
  const to = optString(p, 'to');
  const direction = optString(p, 'direction');
  const el = target === undefined ? null : resolveTarget(target, ctx.registry);
  if (to === 'element') {
    if (el === null) throw new PageError('BAD_REQUEST', 'params.to: "element" needs a target');
    el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
    return position(scroller(el.ownerDocument.scrollingElement));
  }
  const box = el === null ? scroller(null) : scrollableFrom(el);
  const isPage = box === box.ownerDocument.scrollingElement;
  const viewHeight = isPage
    ? (box.ownerDocument.defaultView?.innerHeight ?? box.clientHeight)
    : box.clientHeight;
  const viewWidth = isPage ? (box.ownerDocument.defaultView?.innerWidth ?? box.clientWidth) : box.clientWidth;
  if (to === 'top') box.scrollTo({ top: 0, behavior: 'instant' });
  else if (to === 'bottom') box.scrollTo({ top: box.scrollHeight, behavior: 'instant' });
  else if (to !== undefined)
    throw new PageError('BAD_REQUEST', `params.to: expected top, bottom or element, got "${to}"`);
  else {
    const dir = direction ?? 'down';
    const vertical = dir === 'up' || dir === 'down';
    const amount = optNumber(p, 'amount') ?? Math.round((vertical ? viewHeight : viewWidth) * 0.8);
    const sign = dir === 'up' || dir === 'left' ? -1 : 1;
    if (!['up', 'down', 'left', 'right'].includes(dir))
      throw new PageError('BAD_REQUEST', `params.direction: expected up, down, left or right, got "${dir}"`);
    box.scrollBy({
      top: vertical ? sign * amount : 0,
      left: vertical ? 0 : sign * amount,
      behavior: 'instant',
    });
  }
  return position(box);
}
