/**
 * Getting ready for trusted input: the point to press on an element (the page's `locate` scrolls it
 * into view and checks it can be acted on), keyboard focus on an element, and the human check for
 * input that has no element to locate.
 */
import type { LocateResult } from '@bproxy/page';
import type { ElementTarget } from '@bproxy/protocol';
import { fail } from '@bproxy/driver';
import { callInWorld, runPage } from '../driver/page-runner';
import type { PageTab } from '../driver/page-tab';

/** The forwarded schemas type a required target as optional (a protocol typing limit): check it here. */
export function requireTarget(target: ElementTarget | undefined, action: string): ElementTarget {
  if (target === undefined) fail('BAD_REQUEST', `params.target: ${action} needs an element`);
  return target;
}

/** `enabled: false` lets a disabled element through (hovering one is fine; pressing one is not). */
export async function locate(
  tab: PageTab,
  target: ElementTarget,
  timeoutMs: number,
  enabled = true,
): Promise<{ x: number; y: number }> {
  const data = await runPage(
    tab,
    'locate',
    { target, enabled },
    { timeoutMs, checkHuman: true, retryOnNavigation: true },
  );
  const point = data as Partial<Record<keyof LocateResult, unknown>> | null;
  if (
    point === null ||
    typeof point !== 'object' ||
    typeof point.x !== 'number' ||
    typeof point.y !== 'number'
  ) {
    fail('DRIVER_ERROR', 'locate: the page did not answer a point { x, y }');
  }
  return { x: point.x, y: point.y };
}

// Runs in the isolated world. Finds what is at the point (through open shadow roots and same-origin
// frames), the focusable control it belongs to (a label gives its control), and focuses it without a
// click, so that pressing Enter "on" a button does not also click it.
const FOCUS_AT = `function (x, y, caretToEnd) {
  let doc = document, ox = 0, oy = 0, hit = null;
  for (let depth = 0; depth < 10; depth++) {
    hit = doc.elementFromPoint(x - ox, y - oy);
    while (hit && hit.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x - ox, y - oy);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    const frameDoc = hit && (hit.localName === 'iframe' || hit.localName === 'frame') ? hit.contentDocument : null;
    if (!frameDoc) break;
    const r = hit.getBoundingClientRect();
    ox += r.left + hit.clientLeft;
    oy += r.top + hit.clientTop;
    doc = frameDoc;
  }
  if (!hit) return false;
  const label = hit.closest('label');
  const el = label && label.control ? label.control
    : hit.closest('input,textarea,select,button,a[href],summary,[tabindex],[contenteditable]:not([contenteditable="false"])') || hit;
  const wasFocused = el.getRootNode().activeElement === el;
  el.focus({ preventScroll: true });
  if (caretToEnd && !wasFocused) {
    if (typeof el.setSelectionRange === 'function' && typeof el.value === 'string') {
      try { el.setSelectionRange(el.value.length, el.value.length); } catch (e) { /* no selection on this type */ }
    } else if (el.isContentEditable) {
      const selection = el.ownerDocument.getSelection();
      if (selection) { selection.selectAllChildren(el); selection.collapseToEnd(); }
    }
  }
  return true;
}`;

/**
 * Gives the target the keyboard focus, as the page's own type/press do: typing into a field that was
 * not focused continues after its current text.
 */
export async function focusTarget(
  tab: PageTab,
  target: ElementTarget,
  timeoutMs: number,
  caretToEnd: boolean,
): Promise<void> {
  const point = await locate(tab, target, timeoutMs);
  const focused = await callInWorld(tab, FOCUS_AT, [point.x, point.y, caretToEnd], timeoutMs);
  if (focused !== true) fail('ELEMENT_NOT_INTERACTABLE', 'the element could not take the keyboard focus');
}

/** One page round trip that only checks whether a person is needed. */
export async function checkHuman(tab: PageTab, timeoutMs: number): Promise<void> {
  await runPage(tab, 'pageInfo', {}, { timeoutMs, checkHuman: true, retryOnNavigation: true });
}
