/**
 * What the browser does after an uncancelled keydown: insert or delete text, submit the form on
 * Enter, move focus on Tab, select all on Control+A, step a <select> with the arrows, activate
 * buttons and links. Synthetic key events do none of this by themselves.
 */
import { deepElements } from '../dom/flat-tree';
import { isVisible } from '../dom/visibility';
import {
  asTextField,
  deleteInField,
  fireBeforeInput,
  fireChange,
  fireInput,
  insertIntoField,
  isContentEditable,
  type TextField,
} from './editing';
import type { KeyStroke } from './keys';

const ACTIVATES_ON_ENTER =
  'a[href],button,summary,[role=button],[role=link],[role=menuitem],[role=tab],input[type=submit],input[type=button],input[type=reset],input[type=image]';
const ACTIVATES_ON_SPACE =
  'button,summary,[role=button],[role=checkbox],[role=switch],[role=menuitem],[role=tab],input[type=checkbox],input[type=radio],input[type=submit],input[type=button],input[type=reset]';

export function insertText(el: Element, text: string): void {
  const field = asTextField(el);
  if (field !== null) {
    if (field.readOnly || field.disabled) return;
    if (fireBeforeInput(field, text === '\n' ? 'insertLineBreak' : 'insertText', text))
      insertIntoField(field, text);
    return;
  }
  // execCommand fires beforeinput and input itself.
  if (isContentEditable(el))
    el.ownerDocument.execCommand(text === '\n' ? 'insertLineBreak' : 'insertText', false, text);
}

function submitImplicitly(field: HTMLInputElement): void {
  const form = field.form;
  if (form === null) return;
  const controls = Array.from(form.elements);
  const submitter = controls.find(
    (c) =>
      (c.localName === 'button' && (c as HTMLButtonElement).type === 'submit') ||
      (c.localName === 'input' && ['submit', 'image'].includes((c as HTMLInputElement).type)),
  );
  if (submitter !== undefined) {
    if (!submitter.matches(':disabled')) (submitter as HTMLElement).click();
    return;
  }
  // Without a submit button the browser submits only a form with a single text field.
  const fields = controls.filter((c) => c.localName === 'input' && asTextField(c) !== null);
  if (fields.length <= 1) form.requestSubmit();
}

function tabbables(doc: Document): HTMLElement[] {
  const all: HTMLElement[] = [];
  for (const el of deepElements(doc.body ?? doc.documentElement)) {
    const html = el as HTMLElement;
    if (html.tabIndex < 0 || el.matches(':disabled') || el.localName === 'iframe') continue;
    const focusable =
      html.isContentEditable || el.matches('a[href],button,input,select,textarea,summary,[tabindex]');
    if (focusable && isVisible(el)) all.push(html);
  }
  const positive = all.filter((e) => e.tabIndex > 0).sort((a, b) => a.tabIndex - b.tabIndex);
  return [...positive, ...all.filter((e) => e.tabIndex === 0)];
}

function moveFocus(from: Element, backwards: boolean): void {
  const order = tabbables(document);
  if (order.length === 0) return;
  const index = order.indexOf(from as HTMLElement);
  const next =
    index < 0
      ? backwards
        ? order.length - 1
        : 0
      : (index + (backwards ? -1 : 1) + order.length) % order.length;
  order[next]?.focus();
}

function stepSelect(select: HTMLSelectElement, delta: number): void {
  const index = Math.min(select.options.length - 1, Math.max(0, select.selectedIndex + delta));
  if (index === select.selectedIndex) return;
  select.selectedIndex = index;
  fireInput(select, 'insertReplacementText', null);
  fireChange(select);
}

function moveCaret(field: TextField, to: 'left' | 'right' | 'start' | 'end'): void {
  try {
    const at = field.selectionStart ?? field.value.length;
    const next =
      to === 'start'
        ? 0
        : to === 'end'
          ? field.value.length
          : Math.max(0, Math.min(field.value.length, at + (to === 'left' ? -1 : 1)));
    field.setSelectionRange(next, next);
  } catch {
    // No selection API on this input type.
  }
}

export function keyDefault(el: Element, stroke: KeyStroke): void {
  const field = asTextField(el);
  const editable = isContentEditable(el);
  const key = stroke.key;
  if ((stroke.ctrlKey || stroke.metaKey) && key.toLowerCase() === 'a') {
    if (field !== null) field.select();
    else if (editable) el.ownerDocument.getSelection()?.selectAllChildren(el);
    else el.ownerDocument.getSelection()?.selectAllChildren(el.ownerDocument.body);
    return;
  }
  if (stroke.ctrlKey || stroke.metaKey || stroke.altKey) return;
  if (key === ' ' && el.matches(ACTIVATES_ON_SPACE)) {
    (el as HTMLElement).click();
    return;
  }
  if (stroke.printable) {
    insertText(el, key);
    return;
  }
  switch (key) {
    case 'Enter':
      if (el.localName === 'textarea' || editable) insertText(el, '\n');
      else if (el.localName === 'input') submitImplicitly(el as HTMLInputElement);
      else if (el.matches(ACTIVATES_ON_ENTER)) (el as HTMLElement).click();
      return;
    case 'Tab':
      moveFocus(el, stroke.shiftKey);
      return;
    case 'Backspace':
    case 'Delete':
      if (field !== null && !field.readOnly) {
        if (
          fireBeforeInput(field, key === 'Backspace' ? 'deleteContentBackward' : 'deleteContentForward', null)
        )
          deleteInField(field, key === 'Backspace' ? -1 : 1);
      } else if (editable)
        el.ownerDocument.execCommand(key === 'Backspace' ? 'delete' : 'forwardDelete', false);
      return;
    case 'ArrowUp':
    case 'ArrowDown':
      if (el.localName === 'select') stepSelect(el as HTMLSelectElement, key === 'ArrowDown' ? 1 : -1);
      return;
    case 'ArrowLeft':
    case 'ArrowRight':
    case 'Home':
    case 'End':
      if (field !== null)
        moveCaret(
          field,
          key === 'ArrowLeft' ? 'left' : key === 'ArrowRight' ? 'right' : key === 'Home' ? 'start' : 'end',
        );
      return;
  }
}
