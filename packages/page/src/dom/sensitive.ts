/**
 * Approvals' recognition (issue 25 §2): is the target of a click, or of Enter pressed in it, a control
 * that submits or pays, sends, or deletes? Read from what a person reads — the control's accessible
 * name — and from the form it would submit (payment fields by their `autocomplete` cc-* tokens).
 * A seat belt, not a proof: a page that names its Pay button "Continue" and has no cc-* fields is not
 * recognised (docs/security.md "Approvals" says exactly what is and is not).
 */
import type { ApprovalField, PageClass, SensitiveTarget } from '@bproxy/protocol';
import { APPROVAL_MASK } from '@bproxy/protocol/plain';
import { collapse, nameOf, roleOf } from './aria';

/** Names (the start of a short accessible name, in words) and the class they mean. */
const NAMED: readonly { class: PageClass; pattern: RegExp }[] = [
  {
    class: 'submit',
    pattern:
      /^(pay|buy|place( my| your)? order|purchase|subscribe|transfer|confirm (and|&) pay|complete (purchase|order))\b/,
  },
  { class: 'send', pattern: /^(send|post|publish|reply)\b/ },
  { class: 'delete', pattern: /^(delete|remove|cancel (my )?subscription|close (my )?account)\b/ },
];

/** A name longer than this many words is prose (a card's title, a link's sentence), not a command. */
const MAX_WORDS = 5;

const CONTROL_ROLES = new Set(['button', 'menuitem']);

/**
 * A link that leads to another page — a `href` that is neither `javascript:` nor a fragment of this
 * page — whatever role the page gives it: a menu's "Subscribe" item or a footer's "Subscribe to our
 * RSS feed" button are links dressed as controls, and where a link goes is the site policy's to judge.
 * A `#` or `javascript:` link dressed as a button is a button: a script does what it says.
 */
function leadsElsewhere(node: Element): boolean {
  if (!(node instanceof HTMLAnchorElement || node instanceof HTMLAreaElement)) return false;
  if (!node.hasAttribute('href') || node.protocol === 'javascript:') return false;
  const page = node.ownerDocument.URL.split('#')[0];
  return node.href.split('#')[0] !== page;
}

/** The control a click on `el` presses: the nearest button-like element holding it, else none. */
function controlOf(el: Element): Element | null {
  let node: Element | null = el;
  while (node) {
    if (leadsElsewhere(node)) return null;
    if (node instanceof HTMLButtonElement) return node;
    if (node instanceof HTMLInputElement && ['submit', 'button', 'image'].includes(node.type)) return node;
    const role = node.getAttribute('role');
    if (role !== null && CONTROL_ROLES.has(role)) return node;
    node = node.parentElement;
  }
  return null;
}

function isSubmitter(el: Element): el is HTMLButtonElement | HTMLInputElement {
  if (el instanceof HTMLButtonElement) return el.type === 'submit' && el.form !== null;
  return el instanceof HTMLInputElement && (el.type === 'submit' || el.type === 'image') && el.form !== null;
}

function classByName(name: string): { class: PageClass; why: string } | null {
  const text = collapse(name).toLowerCase();
  if (text === '' || text.split(' ').length > MAX_WORDS) return null;
  for (const rule of NAMED) if (rule.pattern.test(text)) return { class: rule.class, why: `name "${name}"` };
  return null;
}

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

const SECRET_AUTOCOMPLETE =
  /(^|\s)(cc-number|cc-csc|cc-exp(-month|-year)?|current-password|new-password|one-time-code)(\s|$)/;

function autocompleteOf(field: Field): string {
  return (field.getAttribute('autocomplete') ?? '').toLowerCase();
}

function paymentTokens(form: HTMLFormElement): string[] {
  const tokens = new Set<string>();
  for (const field of Array.from(form.elements)) {
    if (!(field instanceof HTMLInputElement || field instanceof HTMLSelectElement)) continue;
    for (const token of autocompleteOf(field).split(/\s+/)) if (token.startsWith('cc-')) tokens.add(token);
  }
  return [...tokens];
}

function fieldsOf(form: HTMLFormElement): ApprovalField[] {
  const out: ApprovalField[] = [];
  for (const field of Array.from(form.elements)) {
    if (out.length >= 30) break;
    if (!(
      field instanceof HTMLInputElement ||
      field instanceof HTMLSelectElement ||
      field instanceof HTMLTextAreaElement
    ))
      continue;
    const type = field instanceof HTMLInputElement ? field.type : field.localName;
    if (['hidden', 'submit', 'button', 'image', 'reset'].includes(type)) continue;
    const secret = type === 'password' || SECRET_AUTOCOMPLETE.test(autocompleteOf(field));
    const raw = field.value;
    const value = secret ? (raw === '' ? '' : APPROVAL_MASK) : raw.slice(0, 200);
    const name = (nameOf(field, 120) || field.name || type).slice(0, 120);
    out.push({ name, type: type.slice(0, 40), value });
  }
  return out;
}

/**
 * The class of a click on `el` (or Enter pressed in it, `enter`): a control named like a sensitive
 * command, or the submitter of a form with payment fields; else no class.
 */
export function recogniseTarget(el: Element, enter = false): SensitiveTarget {
  const control = controlOf(el);
  const form: HTMLFormElement | null = control
    ? isSubmitter(control)
      ? control.form
      : null
    : enter && 'form' in el && (el as Field).form instanceof HTMLFormElement
      ? (el as Field).form
      : null;
  // Enter in a field submits its form: the form's default button speaks for it.
  const speaker =
    control ??
    (form ? form.querySelector('button:not([type]), button[type=submit], input[type=submit]') : null);
  const name = speaker ? nameOf(speaker, 120) : nameOf(el, 120);
  const fields = form ? fieldsOf(form) : [];
  let named = speaker && roleOf(speaker) !== 'link' ? classByName(name) : null;
  // A bare "Reply" button that submits nothing opens a composer (a comment thread's 40 of them); the
  // composer's own Reply/Send/Post is what sends.
  if (named?.class === 'send' && /^reply\b/i.test(collapse(name)) && !(control && isSubmitter(control)))
    named = null;
  if (form) {
    const tokens = paymentTokens(form);
    if (tokens.length > 0)
      return { class: 'submit', name, why: `payment fields (${tokens.join(', ')})`, fields };
  }
  if (named) return { class: named.class, name, why: named.why, fields };
  return { name, fields };
}
