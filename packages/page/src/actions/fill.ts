/** `fill`: replace a field's value in one step, firing input and change like an edit would. */
import type { PageContext } from '../context';
import { ensureActionable } from '../dom/actionability';
import { describe } from '../dom/geometry';
import { resolveTarget } from '../dom/resolve';
import { PageError } from '../errors';
import {
  asTextField,
  fireChange,
  fireInput,
  insertIntoEditable,
  isContentEditable,
  selectEditableContents,
  setNativeValue,
} from '../input/editing';
import { optString, reqString, reqTarget, type Params } from '../params';
import { checkSecretOrigin, rememberSecret } from './fill-secret';
import { effects, type Effects } from './effects';

/** Focusing an already focused element fires nothing, so this is safe to call before every edit. */
export function focusField(el: Element): void {
  (el as HTMLElement).focus({ preventScroll: true });
}

export function fill(ctx: PageContext, p: Params): Effects {
  const el = resolveTarget(reqTarget(p), ctx.registry);
  const value = reqString(p, 'value');
  const secretOrigin = optString(p, 'secretOrigin');
  const field = asTextField(el);
  if (field === null && !isContentEditable(el)) {
    const kind =
      el.localName === 'select'
        ? 'a <select>: use select'
        : el.localName === 'input'
          ? `an input of type ${(el as HTMLInputElement).type}: use click`
          : 'not a text field';
    throw new PageError('ELEMENT_NOT_INTERACTABLE', `${describe(el)} is ${kind}`);
  }
  ensureActionable(el, { enabled: true, editable: field !== null });
  if (secretOrigin !== undefined) {
    checkSecretOrigin(el, secretOrigin);
    rememberSecret(ctx, value);
  }
  focusField(el);
  if (field !== null) {
    setNativeValue(field, value);
    if (field.value !== value && !(field.type === 'email' && field.value === value.trim())) {
      throw new PageError(
        'BAD_REQUEST',
        `${describe(el)} (type ${field.type}) does not accept the value ${secretOrigin === undefined ? JSON.stringify(value.slice(0, 100)) : 'of the secret'}`,
      );
    }
    fireInput(field, 'insertText', value);
    fireChange(field);
  } else {
    selectEditableContents(el);
    insertIntoEditable(el, value);
    fireChange(el);
  }
  return effects();
}
