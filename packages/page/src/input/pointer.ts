/**
 * Synthetic pointer input, in the order a browser fires it for a real mouse: the pointer travels to the
 * point along a hand's path (out/leave, over/enter and moves on whatever it crosses), then down, focus,
 * up, click. Events go to the element actually under each point, so listeners see what they would for
 * a person.
 */
import { composedParent } from '../dom/flat-tree';
import { deepElementFromPoint, type Point } from '../dom/geometry';
import { pointerPath } from './pointer-path';

export type MouseButton = 'left' | 'middle' | 'right';

const BUTTON_CODES: Readonly<Record<MouseButton, { button: number; buttons: number }>> = {
  left: { button: 0, buttons: 1 },
  middle: { button: 1, buttons: 4 },
  right: { button: 2, buttons: 2 },
};

function init(el: Element, at: Point, extra: MouseEventInit): PointerEventInit {
  const view = el.ownerDocument.defaultView;
  return {
    bubbles: true,
    cancelable: true,
    composed: true,
    clientX: at.x,
    clientY: at.y,
    screenX: at.x + (view?.screenX ?? 0),
    screenY: at.y + (view?.screenY ?? 0),
    view,
    pointerId: 1,
    pointerType: 'mouse',
    isPrimary: true,
    ...extra,
  };
}

function fire(el: Element, type: string, at: Point, extra: MouseEventInit = {}): boolean {
  const opts = init(el, at, extra);
  const nonBubbling = type.endsWith('enter') || type.endsWith('leave');
  if (nonBubbling) {
    opts.bubbles = false;
    opts.cancelable = false;
  }
  const event = type.startsWith('pointer') ? new PointerEvent(type, opts) : new MouseEvent(type, opts);
  return el.dispatchEvent(event);
}

/** Where the synthetic pointer is: the element under it and the point, in that element's viewport. */
export interface PointerState {
  hovered: Element | null;
  at: { doc: Document; x: number; y: number } | null;
}

/** `el` and its ancestors in the composed tree of its own document, innermost first. */
function chain(el: Element | null): Element[] {
  const out: Element[] = [];
  for (let node = el; node !== null; node = node.parentElement ?? hostOf(node)) out.push(node);
  return out;
}

function hostOf(el: Element): Element | null {
  const root = el.getRootNode();
  return root.nodeType === Node.DOCUMENT_FRAGMENT_NODE && 'host' in root ? (root as ShadowRoot).host : null;
}

/**
 * The pointer goes from `from` to `to`: out/leave on what it left, over/enter on what it reached, in
 * the order Chrome fires them (leave from the inside out, enter from the outside in).
 */
function cross(from: Element | null, to: Element, at: Point): void {
  const left = chain(from?.isConnected === true ? from : null);
  const reached = chain(to);
  const leaving = left.filter((el) => !reached.includes(el));
  const entering = reached.filter((el) => !left.includes(el)).reverse();
  const related = { relatedTarget: to };
  const back = { relatedTarget: from };
  for (const kind of ['pointer', 'mouse'] as const) {
    if (from !== null && leaving.length > 0) {
      fire(from, `${kind}out`, at, related);
      for (const el of leaving) fire(el, `${kind}leave`, at, related);
    }
    if (entering.length > 0) {
      fire(to, `${kind}over`, at, back);
      for (const el of entering) fire(el, `${kind}enter`, at, back);
    }
  }
}

/**
 * Moves the pointer toward `to` in `doc`'s viewport along a hand's path (pointer-path.ts) from where
 * it last was, with boundary and move events on whatever is under each point. Answers where the path
 * ended (where a press belongs) and what is under it (null outside the viewport).
 */
export function movePointer(
  state: PointerState,
  doc: Document,
  to: Point,
): { at: Point; under: Element | null } {
  const from = state.at !== null && state.at.doc === doc ? state.at : null;
  let at: Point = to;
  let under: Element | null = null;
  for (const point of pointerPath(from, to)) {
    at = point;
    under = deepElementFromPoint(doc, point.x, point.y);
    if (under === null) continue;
    if (under !== state.hovered) cross(state.hovered, under, point);
    state.hovered = under;
    fire(under, 'pointermove', point);
    fire(under, 'mousemove', point);
  }
  state.at = { doc, x: at.x, y: at.y };
  return { at, under };
}

function isFocusable(el: Element): boolean {
  const html = el as HTMLElement;
  if (html.isContentEditable) return true;
  if (el.matches(':disabled')) return false;
  if (el.matches('a[href],area[href],button,input,select,textarea,iframe,summary,[tabindex]')) return true;
  return false;
}

/** Focus moves to the nearest focusable element around the press point, else away from the old one. */
export function focusForPress(hit: Element): void {
  for (let node: Element | null = hit; node !== null; node = composedParent(node)) {
    if (isFocusable(node)) {
      (node as HTMLElement).focus({ preventScroll: true });
      return;
    }
  }
  const active = hit.ownerDocument.activeElement as HTMLElement | null;
  if (active && active !== hit.ownerDocument.body) active.blur();
}

export function pressAndRelease(hit: Element, at: Point, button: MouseButton, clickCount: number): void {
  const codes = BUTTON_CODES[button];
  for (let detail = 1; detail <= clickCount; detail++) {
    fire(hit, 'pointerdown', at, { button: codes.button, buttons: codes.buttons, detail });
    const downAllowed = fire(hit, 'mousedown', at, { button: codes.button, buttons: codes.buttons, detail });
    if (downAllowed && detail === 1) focusForPress(hit);
    fire(hit, 'pointerup', at, { button: codes.button, buttons: 0, detail });
    fire(hit, 'mouseup', at, { button: codes.button, buttons: 0, detail });
    if (button === 'left') fire(hit, 'click', at, { button: 0, buttons: 0, detail });
    else if (button === 'middle') fire(hit, 'auxclick', at, { button: 1, buttons: 0, detail });
    if (button === 'left' && detail === 2) fire(hit, 'dblclick', at, { button: 0, buttons: 0, detail });
  }
  if (button === 'right') fire(hit, 'contextmenu', at, { button: 2, buttons: 0, detail: 1 });
}
