/**
 * Boxes and hit tests across same-origin frames. Element boxes are local to their own frame's viewport;
 * drivers dispatching trusted input need points in the top viewport, so frame offsets are added up.
 */
import { composedContains } from './flat-tree';

export interface Point {
  readonly x: number;
  readonly y: number;
}

function frameOf(doc: Document): Element | null {
  try {
    return doc.defaultView?.frameElement ?? null;
  } catch {
    return null;
  }
}

/** Offset of a document's viewport inside the top viewport. */
export function frameOffset(doc: Document): Point {
  let x = 0;
  let y = 0;
  let frame = frameOf(doc);
  while (frame !== null) {
    const rect = frame.getBoundingClientRect();
    const style = frame.ownerDocument.defaultView?.getComputedStyle(frame);
    x += rect.left + frame.clientLeft + parseFloat(style?.paddingLeft ?? '0');
    y += rect.top + frame.clientTop + parseFloat(style?.paddingTop ?? '0');
    frame = frameOf(frame.ownerDocument);
  }
  return { x, y };
}

export function topBox(el: Element): { x: number; y: number; width: number; height: number } {
  const rect = el.getBoundingClientRect();
  const offset = frameOffset(el.ownerDocument);
  return { x: rect.left + offset.x, y: rect.top + offset.y, width: rect.width, height: rect.height };
}

/** The innermost element at a point of `doc`'s viewport, descending into open shadow roots. */
export function deepElementFromPoint(doc: Document, x: number, y: number): Element | null {
  let hit = doc.elementFromPoint(x, y);
  while (hit?.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (inner === null || inner === hit) break;
    hit = inner;
  }
  return hit;
}

function labelTargets(hit: Element, el: Element): boolean {
  const labels = (el as HTMLInputElement).labels;
  if (!labels) return false;
  return Array.from(labels).some((label) => composedContains(label, hit));
}

/**
 * What covers `el` at its local point (x, y), or null when a click there would reach it (itself, a
 * descendant, or one of its labels). Frames are checked outward: the frame element must be hit too.
 */
export function coveringElement(el: Element, x: number, y: number): Element | null {
  const hit = deepElementFromPoint(el.ownerDocument, x, y);
  if (hit === null) return el.ownerDocument.documentElement;
  if (!composedContains(el, hit) && !labelTargets(hit, el)) return hit;
  const frame = frameOf(el.ownerDocument);
  if (frame === null) return null;
  const rect = frame.getBoundingClientRect();
  const style = frame.ownerDocument.defaultView?.getComputedStyle(frame);
  const fx = rect.left + frame.clientLeft + parseFloat(style?.paddingLeft ?? '0') + x;
  const fy = rect.top + frame.clientTop + parseFloat(style?.paddingTop ?? '0') + y;
  return coveringElement(frame, fx, fy);
}

/** A short description for messages: tag#id.class "text". */
export function describe(el: Element): string {
  let out = el.localName;
  if (el.id) out += `#${el.id}`;
  const classes = Array.from(el.classList).slice(0, 2);
  if (classes.length > 0) out += `.${classes.join('.')}`;
  const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
  return text ? `${out} "${text}"` : out;
}
