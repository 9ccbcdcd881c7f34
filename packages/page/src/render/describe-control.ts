/**
 * One snapshot line for an actionable element: `role "name"` plus the state a person would see
 * (value, checked, disabled, level). Placeholders for refs are added by the caller.
 */
import { clip, collapse, nameOf, roleOf } from '../dom/aria';
import type { ActionableKind } from '../dom/interactive';
import { nameHint } from '../dom/name-hint';

const VALUE_MAX = 60;

export function quote(text: string): string {
  return JSON.stringify(text);
}

/** The value as shown to a person; password values are never echoed. */
export function displayValue(el: Element): string | undefined {
  const tag = el.localName;
  if (tag === 'select') {
    const select = el as HTMLSelectElement;
    const chosen = Array.from(select.selectedOptions).map((o) => collapse(o.label || o.text));
    return chosen.length > 0 ? chosen.join(', ') : undefined;
  }
  if (tag === 'input' || tag === 'textarea') {
    const input = el as HTMLInputElement;
    if (
      input.type === 'checkbox' ||
      input.type === 'radio' ||
      input.type === 'submit' ||
      input.type === 'button' ||
      input.type === 'reset' ||
      input.type === 'image'
    )
      return undefined;
    if (input.value === '') return undefined;
    if (input.type === 'password') return '••••••';
    return input.value;
  }
  if ((el as HTMLElement).isContentEditable) {
    const text = collapse(el.textContent ?? '');
    return text === '' ? undefined : text;
  }
  const aria = el.getAttribute('aria-valuenow') ?? el.getAttribute('aria-valuetext');
  return aria ?? undefined;
}

export function checkedState(el: Element): boolean | undefined {
  if (el.localName === 'input') {
    const input = el as HTMLInputElement;
    if (input.type === 'checkbox' || input.type === 'radio') return input.checked;
  }
  const aria =
    el.getAttribute('aria-checked') ?? el.getAttribute('aria-pressed') ?? el.getAttribute('aria-selected');
  if (aria === 'true') return true;
  if (aria === 'false') return false;
  return undefined;
}

/**
 * A name for an element without one: for a link, the end of its URL, which usually says where it
 * goes; for anything else what its markup tells (see name-hint.ts).
 */
export function nameOrHint(el: Element, max: number): string {
  const name = nameOf(el, max);
  if (name !== '') return name;
  if (el.localName !== 'a' || !el.hasAttribute('href')) return nameHint(el);
  const href = (el as HTMLAnchorElement).href;
  try {
    const url = new URL(href);
    const tail =
      url.pathname
        .split('/')
        .filter((s) => s !== '')
        .pop() ?? url.hostname;
    return clip(`→ ${decodeURIComponent(tail)}`, 50);
  } catch {
    return '';
  }
}

/**
 * The role word a line shows: a control's role; for anything else made actionable only by how it
 * behaves (a clickable list item, a focusable box), how it is operated.
 */
export function shownRole(el: Element, kind: ActionableKind): string {
  if (kind === 'control') return roleOf(el);
  return kind === 'focusable' ? 'focusable' : 'clickable';
}

/** `name` replaces the element's own (a container is named by its label, not its whole text). */
export function controlLine(el: Element, kind: ActionableKind, name = nameOrHint(el, 80)): string {
  const role = shownRole(el, kind);
  let line = name ? `${role} ${quote(name)}` : role;
  const value = displayValue(el);
  if (value !== undefined && value !== name) line += ` value=${quote(clip(collapse(value), VALUE_MAX))}`;
  const checked = checkedState(el);
  // A tab or an option says it is selected; a checkbox, switch or toggle button that it is checked.
  const selected =
    el.localName !== 'input' && !el.hasAttribute('aria-checked') && !el.hasAttribute('aria-pressed');
  if (checked === true) line += selected ? ' selected' : ' checked';
  if (el.matches(':disabled') || el.getAttribute('aria-disabled') === 'true') line += ' disabled';
  if (el.getAttribute('aria-expanded') === 'true') line += ' expanded';
  return line;
}
