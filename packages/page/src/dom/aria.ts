/**
 * Roles and accessible names, close enough to the ARIA rules for an agent to recognise what a person
 * sees: explicit role first, then the tag's implicit role; the name from aria-labelledby, aria-label,
 * the field's labels, placeholder, alt, title, then the text inside.
 */
import { flatChildren, isElement, isFrame } from './flat-tree';
import { styleOf } from './visibility';

const INPUT_ROLES: Readonly<Record<string, string>> = {
  button: 'button',
  submit: 'button',
  reset: 'button',
  image: 'button',
  checkbox: 'checkbox',
  radio: 'radio',
  range: 'slider',
  number: 'spinbutton',
  search: 'searchbox',
  file: 'button',
  color: 'button',
};

const TAG_ROLES: Readonly<Record<string, string>> = {
  button: 'button',
  textarea: 'textbox',
  nav: 'navigation',
  main: 'main',
  aside: 'complementary',
  dialog: 'dialog',
  img: 'img',
  ul: 'list',
  ol: 'list',
  li: 'listitem',
  table: 'table',
  summary: 'button',
  option: 'option',
  h1: 'heading',
  h2: 'heading',
  h3: 'heading',
  h4: 'heading',
  h5: 'heading',
  h6: 'heading',
  search: 'search',
  article: 'article',
};

export function roleOf(el: Element): string {
  const explicit = el.getAttribute('role')?.trim().split(/\s+/)[0];
  if (explicit) return explicit;
  const tag = el.localName;
  if (tag === 'a' || tag === 'area') return el.hasAttribute('href') ? 'link' : 'generic';
  if (tag === 'input') return INPUT_ROLES[(el as HTMLInputElement).type] ?? 'textbox';
  if (tag === 'select') {
    const select = el as HTMLSelectElement;
    return select.multiple || select.size > 1 ? 'listbox' : 'combobox';
  }
  if (tag === 'header' || tag === 'footer') {
    if (el.closest('article, aside, main, nav, section') !== null) return 'generic';
    return tag === 'header' ? 'banner' : 'contentinfo';
  }
  if (tag === 'section') return hasOwnLabel(el) ? 'region' : 'generic';
  if (tag === 'form') return 'form';
  if (isEditableRoot(el)) return 'textbox';
  return TAG_ROLES[tag] ?? 'generic';
}

export function headingLevel(el: Element): number | undefined {
  const m = /^h([1-6])$/.exec(el.localName);
  if (m?.[1] !== undefined) return Number(m[1]);
  const aria = Number(el.getAttribute('aria-level'));
  return Number.isInteger(aria) && aria > 0 ? aria : undefined;
}

/** The topmost element of a contenteditable region (its children are editable too but not separate fields). */
export function isEditableRoot(el: Element): boolean {
  if (!(el as HTMLElement).isContentEditable) return false;
  const parent = el.parentElement;
  return parent === null || !parent.isContentEditable;
}

function hasOwnLabel(el: Element): boolean {
  return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby');
}

export function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * Text of a subtree for naming: rendered text nodes plus alt of images, whitespace collapsed. Hidden
 * nodes are skipped (the root itself counts even when hidden, as aria-labelledby may point at one), and
 * words break at every box that is not inline, as they do on screen. `skip` is the control being
 * named: a label wrapping it must not lend it the control's own text (a select's options). `seen`,
 * when given, also drops text nodes a person could not see (see UnseenText).
 */
export function subtreeText(root: Node, max = 200, skip?: Element, seen?: (text: Text) => boolean): string {
  let out = '';
  const visit = (node: Node, shown: boolean): void => {
    if (out.length > max * 2) return;
    if (node.nodeType === Node.TEXT_NODE) {
      if (shown && (seen === undefined || seen(node as Text))) out += node.nodeValue ?? '';
      return;
    }
    if (!isElement(node)) return;
    const el = node;
    if (el === skip) return;
    const tag = el.localName;
    if (tag === 'script' || tag === 'style' || tag === 'noscript' || tag === 'template') return;
    if (el.getAttribute('aria-hidden') === 'true') return;
    const style = el === root ? null : styleOf(el);
    if (style !== null && style.display === 'none') return;
    const visible = style === null ? shown : style.visibility === 'visible';
    if (tag === 'img' || (tag === 'input' && (el as HTMLInputElement).type === 'image')) {
      if (visible) out += ` ${el.getAttribute('alt') ?? ''} `;
      return;
    }
    const label = el.getAttribute('aria-label');
    if (label && el !== root) {
      if (visible) out += ` ${label} `;
      return;
    }
    if (isFrame(el)) return;
    const boxed =
      tag === 'br' || (style !== null && style.display !== 'inline' && style.display !== 'contents');
    if (boxed) out += ' ';
    for (const child of flatChildren(el)) visit(child, visible);
    if (boxed) out += ' ';
  };
  visit(root, true);
  return clip(collapse(out), max);
}

function labelledByText(el: Element): string {
  const ids = el.getAttribute('aria-labelledby')?.trim();
  if (!ids) return '';
  const root = el.getRootNode() as Document | ShadowRoot;
  return collapse(
    ids
      .split(/\s+/)
      .map((id) => {
        const ref = root.getElementById?.(id) ?? el.ownerDocument.getElementById(id);
        return ref ? subtreeText(ref) : '';
      })
      .join(' '),
  );
}

function fieldLabels(el: Element): string {
  const labels = (el as HTMLInputElement).labels;
  if (!labels || labels.length === 0) return '';
  return collapse(
    Array.from(labels)
      .map((label) => subtreeText(label, 200, el))
      .join(' '),
  );
}

const TEXT_NAMED = new Set([
  'button',
  'link',
  'heading',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'treeitem',
  'checkbox',
  'radio',
  'switch',
  'cell',
  'gridcell',
  'listitem',
  'row',
  'columnheader',
  'rowheader',
  'tooltip',
  'legend',
  'generic',
]);

/** The accessible name, clipped to `max` characters. */
export function nameOf(el: Element, max = 120): string {
  const byId = labelledByText(el);
  if (byId) return clip(byId, max);
  const aria = collapse(el.getAttribute('aria-label') ?? '');
  if (aria) return clip(aria, max);
  const tag = el.localName;
  const isField = tag === 'input' || tag === 'select' || tag === 'textarea';
  if (isField) {
    const type = (el as HTMLInputElement).type;
    if (tag === 'input' && (type === 'submit' || type === 'reset' || type === 'button')) {
      const value = (el as HTMLInputElement).value;
      return clip(value || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : ''), max);
    }
    if (tag === 'input' && type === 'image')
      return clip(collapse(el.getAttribute('alt') ?? el.getAttribute('title') ?? 'Submit'), max);
    const labels = fieldLabels(el);
    if (labels) return clip(labels, max);
    const title = collapse(el.getAttribute('title') ?? '');
    const placeholder = collapse(el.getAttribute('placeholder') ?? '');
    return clip(placeholder || title, max);
  }
  if (tag === 'img' || tag === 'area') {
    const alt = collapse(el.getAttribute('alt') ?? '');
    if (alt) return clip(alt, max);
  }
  const role = roleOf(el);
  if (TEXT_NAMED.has(role) || tag === 'summary' || tag === 'label' || tag === 'a') {
    const text = subtreeText(el, max);
    if (text) return text;
  }
  const labels = isEditableRoot(el) ? '' : fieldLabels(el);
  if (labels) return clip(labels, max);
  const placeholder = collapse(el.getAttribute('placeholder') ?? el.getAttribute('aria-placeholder') ?? '');
  if (placeholder) return clip(placeholder, max);
  return clip(collapse(el.getAttribute('title') ?? ''), max);
}
