/**
 * The checks a person's click implies: the element is in view (scrolled there if needed), visible,
 * enabled and not covered. Failing any of them is ELEMENT_NOT_INTERACTABLE with a message saying which.
 */
import { PageError } from '../errors';
import { coveringElement, describe, frameOffset, type Point } from './geometry';
import { invisibilityReason, isDisabled } from './visibility';

export interface ActionPoint {
  /** Center in the element's own frame viewport (for synthetic events). */
  readonly local: Point;
  /** Center in the top viewport (for drivers with trusted input). */
  readonly top: Point;
}

function notInteractable(el: Element, why: string): PageError {
  return new PageError('ELEMENT_NOT_INTERACTABLE', `${describe(el)} ${why}`);
}

function inViewport(el: Element): boolean {
  const rect = el.getBoundingClientRect();
  const view = el.ownerDocument.defaultView;
  if (view === null) return false;
  return rect.top >= 0 && rect.left >= 0 && rect.bottom <= view.innerHeight && rect.right <= view.innerWidth;
}

export function scrollIntoViewIfNeeded(el: Element): void {
  if (!inViewport(el)) el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
}

export function ensureActionable(el: Element, opts: { enabled: boolean; editable?: boolean }): ActionPoint {
  const hidden = invisibilityReason(el);
  if (hidden) throw notInteractable(el, `is not visible: ${hidden}`);
  if (opts.enabled && isDisabled(el)) throw notInteractable(el, 'is disabled');
  if (opts.editable && (el as HTMLInputElement).readOnly === true) throw notInteractable(el, 'is read-only');
  scrollIntoViewIfNeeded(el);
  const rect = el.getBoundingClientRect();
  const view = el.ownerDocument.defaultView;
  // Center of the part inside the viewport: a box taller than the viewport is still clickable.
  const left = Math.max(rect.left, 0);
  const top = Math.max(rect.top, 0);
  const right = Math.min(rect.right, view?.innerWidth ?? rect.right);
  const bottom = Math.min(rect.bottom, view?.innerHeight ?? rect.bottom);
  if (right <= left || bottom <= top)
    throw notInteractable(el, 'is outside the viewport and could not be scrolled into view');
  const x = (left + right) / 2;
  const y = (top + bottom) / 2;
  const cover = coveringElement(el, x, y);
  if (cover) throw notInteractable(el, `is covered by ${describe(cover)} at its center`);
  const offset = frameOffset(el.ownerDocument);
  return { local: { x, y }, top: { x: x + offset.x, y: y + offset.y } };
}
