/**
 * How much of an element its clipping ancestors leave visible: every ancestor with overflow other than
 * visible cuts the box to its padding box, following the containing-block chain (an absolutely
 * positioned box escapes static ancestors, a fixed one escapes all of them). The viewport is not part
 * of this: being below the fold is not being clipped.
 */
import { styleOf } from './visibility';

export interface Rect {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

export interface Clip {
  /** The visible part of the element's box (empty when right <= left or bottom <= top). */
  readonly rect: Rect;
  /** The innermost ancestor that cut something off, or null when nothing did. */
  readonly by: Element | null;
}

export function isEmpty(rect: Rect): boolean {
  return rect.right - rect.left < 1 || rect.bottom - rect.top < 1;
}

export function intersect(a: Rect, b: Rect): Rect {
  return {
    left: Math.max(a.left, b.left),
    top: Math.max(a.top, b.top),
    right: Math.min(a.right, b.right),
    bottom: Math.min(a.bottom, b.bottom),
  };
}

/** Whether `inner` loses more than a pixel against `outer` on some side. */
export function cutOff(outer: Rect, inner: Rect): boolean {
  return (
    inner.left > outer.left + 1 ||
    inner.top > outer.top + 1 ||
    inner.right < outer.right - 1 ||
    inner.bottom < outer.bottom - 1
  );
}

function paddingBox(el: Element): Rect {
  const rect = el.getBoundingClientRect();
  const left = rect.left + el.clientLeft;
  const top = rect.top + el.clientTop;
  return { left, top, right: left + el.clientWidth, bottom: top + el.clientHeight };
}

function escapes(position: string, ancestor: CSSStyleDeclaration): boolean {
  if (position === 'fixed') return ancestor.transform === 'none' && ancestor.filter === 'none';
  return position === 'absolute' && ancestor.position === 'static' && ancestor.transform === 'none';
}

export function clipOf(el: Element): Clip {
  let rect: Rect = el.getBoundingClientRect();
  let by: Element | null = null;
  let position = styleOf(el).position;
  for (let node = el.parentElement; node !== null; node = node.parentElement) {
    const tag = node.localName;
    // The root's and body's overflow belong to the viewport.
    if (tag === 'body' || tag === 'html') break;
    const style = styleOf(node);
    if (escapes(position, style)) continue;
    if (style.overflowX !== 'visible' || style.overflowY !== 'visible') {
      const next = intersect(rect, paddingBox(node));
      if (cutOff(rect, next)) by ??= node;
      rect = next;
    }
    position = style.position;
  }
  return { rect, by };
}
