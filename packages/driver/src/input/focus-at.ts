/**
 * Keyboard focus for trusted keys: runs in the page (the extension hands the function to
 * chrome.scripting; the CDP driver sends its source text to Runtime.callFunctionOn in the isolated
 * world), so it must not reference anything outside its own body. It finds what is at a viewport
 * point — through open shadow roots and same-origin frames —, the focusable control it belongs to (a
 * label gives its control), and focuses that without a click, so that pressing Enter "on" a button does
 * not also click it. Typing into a field that was not focused continues after its current text.
 */
export function focusAtPoint(x: number, y: number, caretToEnd: boolean): boolean {
  let doc: Document = document;
  let ox = 0;
  let oy = 0;
  let hit: Element | null = null;
  for (let depth = 0; depth < 10; depth++) {
    hit = doc.elementFromPoint(x - ox, y - oy);
    while (hit?.shadowRoot) {
      const inner: Element | null = hit.shadowRoot.elementFromPoint(x - ox, y - oy);
      if (inner === null || inner === hit) break;
      hit = inner;
    }
    // By name, not instanceof: an element of a child document belongs to that document's realm.
    const frame =
      hit !== null && (hit.localName === 'iframe' || hit.localName === 'frame')
        ? (hit as HTMLIFrameElement)
        : null;
    const frameDoc = frame?.contentDocument ?? null;
    if (frame === null || frameDoc === null) break;
    const r = frame.getBoundingClientRect();
    ox += r.left + frame.clientLeft;
    oy += r.top + frame.clientTop;
    doc = frameDoc;
  }
  if (hit === null) return false;
  const label = hit.closest('label');
  const el = (label?.control ??
    hit.closest(
      'input,textarea,select,button,a[href],summary,[tabindex],[contenteditable]:not([contenteditable="false"])',
    ) ??
    hit) as HTMLElement;
  const root = el.getRootNode() as Document | ShadowRoot;
  const wasFocused = root.activeElement === el;
  el.focus({ preventScroll: true });
  if (caretToEnd && !wasFocused) {
    const field = el as Partial<HTMLInputElement>;
    if (typeof field.setSelectionRange === 'function' && typeof field.value === 'string') {
      try {
        field.setSelectionRange(field.value.length, field.value.length);
      } catch {
        // No selection on this input type.
      }
    } else if (el.isContentEditable) {
      const selection = el.ownerDocument.getSelection();
      if (selection !== null) {
        selection.selectAllChildren(el);
        selection.collapseToEnd();
      }
    }
  }
  return true;
}

/** focusAtPoint as a function declaration, for drivers that send source text (CDP). */
export const FOCUS_AT_POINT = focusAtPoint.toString();
