/**
 * Changing a field's text the way the browser does, so frameworks notice: values go through the
 * native setter of the element's own prototype (React and Vue patch the instance setter and would
 * otherwise swallow the change), followed by the input event a keystroke would fire.
 */

export type TextField = HTMLInputElement | HTMLTextAreaElement;

const TEXT_INPUT_TYPES = new Set([
  'text',
  'search',
  'email',
  'url',
  'tel',
  'password',
  'number',
  'date',
  'time',
  'datetime-local',
  'month',
  'week',
  'color',
  'range',
]);

export function asTextField(el: Element): TextField | null {
  if (el.localName === 'textarea') return el as HTMLTextAreaElement;
  if (el.localName === 'input' && TEXT_INPUT_TYPES.has((el as HTMLInputElement).type))
    return el as HTMLInputElement;
  return null;
}

export function isContentEditable(el: Element): boolean {
  return (el as HTMLElement).isContentEditable;
}

export function setNativeValue(field: TextField, value: string): void {
  for (
    let proto: object | null = Object.getPrototypeOf(field);
    proto !== null;
    proto = Object.getPrototypeOf(proto)
  ) {
    const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
    if (setter) {
      setter.call(field, value);
      return;
    }
  }
  field.value = value;
}

export function fireInput(el: Element, inputType: string, data: string | null): void {
  el.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType, data }));
}

export function fireChange(el: Element): void {
  el.dispatchEvent(new Event('change', { bubbles: true }));
}

/** Whether the beforeinput event was let through (a page may cancel it to block the edit). */
export function fireBeforeInput(el: Element, inputType: string, data: string | null): boolean {
  return el.dispatchEvent(
    new InputEvent('beforeinput', { bubbles: true, cancelable: true, composed: true, inputType, data }),
  );
}

/** Selection bounds, or null for input types without a selection API (email, number). */
function selection(field: TextField): { start: number; end: number } | null {
  try {
    const start = field.selectionStart;
    const end = field.selectionEnd;
    if (start === null || end === null) return null;
    return { start, end };
  } catch {
    return null;
  }
}

function setCaret(field: TextField, at: number): void {
  try {
    field.setSelectionRange(at, at);
  } catch {
    // Types without a selection API keep the caret at the end anyway.
  }
}

/** Replace the selection (or insert at the caret) with `text`, then fire input. */
export function insertIntoField(field: TextField, text: string): void {
  const sel = selection(field) ?? { start: field.value.length, end: field.value.length };
  setNativeValue(field, field.value.slice(0, sel.start) + text + field.value.slice(sel.end));
  setCaret(field, sel.start + text.length);
  fireInput(field, text === '\n' ? 'insertLineBreak' : 'insertText', text);
}

/** Backspace (direction -1) or Delete (+1) in a field, then fire input when something changed. */
export function deleteInField(field: TextField, direction: -1 | 1): void {
  const sel = selection(field) ?? { start: field.value.length, end: field.value.length };
  let { start, end } = sel;
  if (start === end) {
    if (direction < 0) start = Math.max(0, start - 1);
    else end = Math.min(field.value.length, end + 1);
  }
  if (start === end) return;
  setNativeValue(field, field.value.slice(0, start) + field.value.slice(end));
  setCaret(field, start);
  fireInput(field, direction < 0 ? 'deleteContentBackward' : 'deleteContentForward', null);
}

/** Select the whole content of a contenteditable region so the next insert replaces it. */
export function selectEditableContents(el: Element): void {
  const doc = el.ownerDocument;
  const range = doc.createRange();
  range.selectNodeContents(el);
  const sel = doc.getSelection();
  sel?.removeAllRanges();
  sel?.addRange(range);
}

/** Insert into a contenteditable region; execCommand fires beforeinput and input like typing does. */
export function insertIntoEditable(el: Element, text: string): void {
  const doc = el.ownerDocument;
  const done = text === '' ? doc.execCommand('delete', false) : doc.execCommand('insertText', false, text);
  if (!done) {
    el.textContent = (el.textContent ?? '') + text;
    fireInput(el, 'insertText', text);
  }
}
