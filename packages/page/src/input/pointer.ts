/**
 * Synthetic pointer input at a point, in the order a browser fires it for a real mouse: over/enter,
 * move, down, focus, up, click. Events go to the element actually under the point (the target or a
 * descendant), so listeners on either see what they would for a person.
 */
import type { Point } from '../dom/geometry';
import { composedParent } from '../dom/flat-tree';

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

/** Move the pointer onto `el`, leaving the previously hovered element first. */
export function pointerEnter(el: Element, at: Point, previous: Element | null): void {
  if (previous !== null && previous !== el && previous.isConnected) {
    fire(previous, 'pointerout', at, { relatedTarget: el });
    fire(previous, 'pointerleave', at, { relatedTarget: el });
    fire(previous, 'mouseout', at, { relatedTarget: el });
    fire(previous, 'mouseleave', at, { relatedTarget: el });
  }
  if (previous !== el) {
    fire(el, 'pointerover', at, { relatedTarget: previous });
    fire(el, 'pointerenter', at, { relatedTarget: previous });
    fire(el, 'mouseover', at, { relatedTarget: previous });
    fire(el, 'mouseenter', at, { relatedTarget: previous });
  }
  fire(el, 'pointermove', at);
  fire(el, 'mousemove', at);
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
