/**
 * Whether an element can be seen, and if not, why. "Visible" follows what a person could see: a
 * non-empty box, not display:none, not visibility:hidden, not fully transparent (self or ancestor).
 */

/** Computed styles seen during one read (see sameStylesDuring); null outside of one. */
let seen: WeakMap<Element, CSSStyleDeclaration> | null = null;

export function styleOf(el: Element): CSSStyleDeclaration {
  const known = seen?.get(el);
  if (known !== undefined) return known;
  const view = el.ownerDocument.defaultView ?? window;
  const style = view.getComputedStyle(el);
  seen?.set(el, style);
  return style;
}

/**
 * Runs a read that asks for the same elements' styles many times (names, clipping ancestors) with
 * each element's computed style looked up once. Only for synchronous reads: the page cannot change
 * its styles while one runs.
 */
export function sameStylesDuring<T>(read: () => T): T {
  if (seen !== null) return read();
  seen = new WeakMap();
  try {
    return read();
  } finally {
    seen = null;
  }
}

/** Why `el` is not visible, or null when it is. */
export function invisibilityReason(el: Element): string | null {
  if (!el.isConnected) return 'it is detached from the document';
  if (el.ownerDocument.defaultView === null) return 'its document is gone (the frame navigated)';
  const style = styleOf(el);
  if (style.display === 'none' || !el.checkVisibility())
    return 'it is not rendered (display:none on it or an ancestor)';
  if (!el.checkVisibility({ visibilityProperty: true })) return 'it is hidden (visibility:hidden)';
  if (!el.checkVisibility({ opacityProperty: true })) return 'it is fully transparent (opacity:0)';
  const rect = el.getBoundingClientRect();
  if (rect.width === 0 || rect.height === 0) {
    // display:contents boxes are empty yet their children show.
    if (style.display === 'contents') return null;
    return 'it has an empty box (zero width or height)';
  }
  return null;
}

export function isVisible(el: Element): boolean {
  return invisibilityReason(el) === null;
}

export function isDisabled(el: Element): boolean {
  if (el.matches(':disabled')) return true;
  return el.getAttribute('aria-disabled') === 'true';
}
