/** `select`: choose options of a <select> by value or visible label, firing input and change. */
import type { ActionResult } from '@bproxy/protocol';
import type { PageContext } from '../context';
import { ensureActionable } from '../dom/actionability';
import { collapse } from '../dom/aria';
import { describe } from '../dom/geometry';
import { resolveTarget } from '../dom/resolve';
import { PageError } from '../errors';
import { fireChange, fireInput } from '../input/editing';
import { optStringArray, reqTarget, type Params } from '../params';
import { effects } from './effects';

function findOption(select: HTMLSelectElement, wanted: string): HTMLOptionElement {
  const options = Array.from(select.options);
  const label = collapse(wanted).toLowerCase();
  const option =
    options.find((o) => o.value === wanted) ??
    options.find((o) => collapse(o.label || o.text).toLowerCase() === label);
  if (option === undefined) {
    const known = options
      .map((o) => JSON.stringify(collapse(o.label || o.text)))
      .slice(0, 20)
      .join(', ');
    throw new PageError(
      'ELEMENT_NOT_FOUND',
      `${describe(select)} has no option with value or label ${JSON.stringify(wanted)}; options: ${known}`,
    );
  }
  if (
    option.disabled ||
    (option.parentElement?.localName === 'optgroup' && (option.parentElement as HTMLOptGroupElement).disabled)
  ) {
    throw new PageError(
      'ELEMENT_NOT_INTERACTABLE',
      `option ${JSON.stringify(wanted)} of ${describe(select)} is disabled`,
    );
  }
  return option;
}

export function select(ctx: PageContext, p: Params): ActionResult<'select'> {
  const el = resolveTarget(reqTarget(p), ctx.registry);
  const values = optStringArray(p, 'values') ?? [];
  if (el.localName !== 'select') {
    throw new PageError(
      'ELEMENT_NOT_INTERACTABLE',
      `${describe(el)} is not a <select>; click it and then click the option`,
    );
  }
  const selectEl = el as HTMLSelectElement;
  if (values.length === 0)
    throw new PageError('BAD_REQUEST', 'params.values: give at least one value or label');
  if (values.length > 1 && !selectEl.multiple) {
    throw new PageError('BAD_REQUEST', `${describe(el)} takes one option; got ${values.length}`);
  }
  ensureActionable(el, { enabled: true });
  const chosen = values.map((v) => findOption(selectEl, v));
  selectEl.focus({ preventScroll: true });
  for (const option of Array.from(selectEl.options)) option.selected = chosen.includes(option);
  fireInput(selectEl, 'insertReplacementText', null);
  fireChange(selectEl);
  return { ...effects(), selected: Array.from(selectEl.selectedOptions, (o) => o.value) };
}
