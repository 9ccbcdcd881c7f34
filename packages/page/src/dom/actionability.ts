/**
 * The checks a person's click implies: the element is in view (the page and every scrolling ancestor
 * scrolled as needed), visible, enabled and not covered. Failing any of them is
 * ELEMENT_NOT_INTERACTABLE with a message saying which.
 */
import { PageError } from '../errors';
import { clipOf, cutOff, intersect, isEmpty, type Rect } from './clip';
import { composedContains } from './flat-tree';
import { coveringElement, describe, frameOffset, type Point } from './geometry';
import { invisibilityReason, isDisabled, styleOf } from './visibility';

export interface ActionPoint {
  /** Center in the element's own frame viewport (for synthetic events). */
  readonly local: Point;
  /** Center in the top viewport (for drivers with trusted input). */
  readonly top: Point;
  /** Whether the page (or a scrolling ancestor) was scrolled to bring the element into view. */
  readonly scrolled: boolean;
}

function notInteractable(el: Element, why: string): PageError {
  return new PageError('ELEMENT_NOT_INTERACTABLE', `${describe(el)} ${why}`);
}

/** The part of `el` a person can see: cut by its clipping ancestors, then by its viewport. */
function shownPart(el: Element): { rect: Rect; clippedBy: Element | null } {
  const clip = clipOf(el);
  const view = el.ownerDocument.defaultView;
  const viewport: Rect = {
    left: 0,
    top: 0,
    right: view?.innerWidth ?? clip.rect.right,
    bottom: view?.innerHeight ?? clip.rect.bottom,
  };
  return { rect: intersect(clip.rect, viewport), clippedBy: clip.by };
}

/** Scrolls the page and every scrolling ancestor as needed so that all of `el` shows, if it can. */
function scrollIntoViewIfNeeded(el: Element): boolean {
  if (!cutOff(el.getBoundingClientRect(), shownPart(el).rect)) return false;
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  return true;
}

function notReached(el: Element, hit: Element): PageError {
  // The press would land on an ancestor: nothing covers the element, it lets presses through.
  if (composedContains(hit, el)) {
    const passes = styleOf(el).pointerEvents === 'none';
    return notInteractable(
      el,
      passes
        ? 'does not take pointer events (pointer-events: none)'
        : `is not hit at its center: a press there reaches ${describe(hit)}`,
    );
  }
  return notInteractable(el, `is covered by ${describe(hit)} at its center`);
}

/** Throws unless a press at `at` (in el's own viewport) reaches el. */
export function assertReached(el: Element, at: Point): void {
  const hit = coveringElement(el, at.x, at.y);
  if (hit) throw notReached(el, hit);
}

export function ensureActionable(el: Element, opts: { enabled: boolean; editable?: boolean }): ActionPoint {
  const hidden = invisibilityReason(el);
  if (hidden) throw notInteractable(el, `is not visible: ${hidden}`);
  if (opts.enabled && isDisabled(el)) throw notInteractable(el, 'is disabled');
  if (opts.editable && (el as HTMLInputElement).readOnly === true) throw notInteractable(el, 'is read-only');
  const scrolled = scrollIntoViewIfNeeded(el);
  // Center of the part that shows: a box taller than the viewport is still clickable.
  const { rect, clippedBy } = shownPart(el);
  if (isEmpty(rect)) {
    if (clippedBy !== null && isEmpty(clipOf(el).rect))
      throw notInteractable(
        el,
        `is clipped by ${describe(clippedBy)}: it lies outside the part that box shows`,
      );
    throw notInteractable(el, 'is outside the viewport and could not be scrolled into view');
  }
  const x = (rect.left + rect.right) / 2;
  const y = (rect.top + rect.bottom) / 2;
  assertReached(el, { x, y });
  const offset = frameOffset(el.ownerDocument);
  return { local: { x, y }, top: { x: x + offset.x, y: y + offset.y }, scrolled };
}
