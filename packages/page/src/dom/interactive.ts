/**
 * Which elements a person could act on, and how: native controls, links, ARIA widgets and editable
 * regions ('control'); elements that only look or behave clickable — an anchor without href, an
 * onclick, a pointer cursor that starts there, a separately clickable child of such a box ('pointer');
 * and anything else in the tab order ('focusable', operated by keys). Event listeners cannot be seen
 * from here, so these are the signals real widget libraries leave in the DOM.
 */
import { isEditableRoot } from './aria';
import { composedContains, isFrame } from './flat-tree';
import { deepElementFromPoint } from './geometry';
import { styleOf } from './visibility';

export type ActionableKind = 'control' | 'pointer' | 'focusable';

const WIDGET_ROLES = new Set([
  'button',
  'link',
  'checkbox',
  'radio',
  'switch',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'combobox',
  'textbox',
  'searchbox',
  'slider',
  'spinbutton',
  'treeitem',
  'listbox',
  'gridcell',
]);

const TEXT_CONTENT = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'blockquote', 'pre']);

/** Elements whose descendants are part of them, never separate targets. */
const CONTROL_SELECTOR =
  'a[href],area[href],button,input,select,textarea,summary,label,[role=button],[role=link],[role=menuitem],[role=tab],[role=option],[role=treeitem]';

function nativeControl(el: Element): boolean {
  switch (el.localName) {
    case 'a':
    case 'area':
      return el.hasAttribute('href');
    case 'button':
    case 'select':
    case 'textarea':
      return true;
    case 'input':
      return (el as HTMLInputElement).type !== 'hidden';
    case 'summary':
      return el.parentElement?.localName === 'details';
  }
  return false;
}

function widgetRole(el: Element): boolean {
  const role = el.getAttribute('role');
  return role !== null && WIDGET_ROLES.has(role.trim().split(/\s+/)[0] ?? '');
}

/** An anchor without href stands for a button (a datepicker's Prev) unless it is a named fragment target. */
function hreflessAnchor(el: Element): boolean {
  if (el.localName !== 'a' || el.hasAttribute('href') || el.hasAttribute('name')) return false;
  return (el.textContent ?? '').trim() !== '' || el.hasAttribute('title') || el.querySelector('img') !== null;
}

function inTabOrder(el: Element): boolean {
  const tabindex = el.getAttribute('tabindex');
  return tabindex !== null && tabindex.trim() !== '' && Number(tabindex) >= 0;
}

function pointerCursor(el: Element | null): boolean {
  return el !== null && styleOf(el).cursor === 'pointer';
}

function ownText(el: Element): boolean {
  for (const child of Array.from(el.childNodes))
    if (child.nodeType === Node.TEXT_NODE && (child.nodeValue ?? '').trim() !== '') return true;
  return false;
}

function collapsedText(el: Element): string {
  return (el.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/**
 * Whether a press at the center of `el` reaches it (and not a sibling laid over it). Outside the
 * viewport nothing can be hit-tested: such an element counts, as it would once scrolled into view.
 */
function hitAtCenter(el: Element): boolean {
  const rect = el.getBoundingClientRect();
  if (rect.width === 0 || rect.height === 0) return false;
  const x = rect.left + rect.width / 2;
  const y = rect.top + rect.height / 2;
  const view = el.ownerDocument.defaultView;
  if (view === null || x < 0 || y < 0 || x >= view.innerWidth || y >= view.innerHeight) return true;
  const hit = deepElementFromPoint(el.ownerDocument, x, y);
  return hit !== null && composedContains(el, hit);
}

/**
 * A pointer-cursor box inside another one. The cursor is inherited, so most such boxes are only the
 * parent's content; one counts on its own when it is a separate block (a toolbar item, a tree's nested
 * item, not a heading or paragraph) with its own text, inside a box that is not a native control, and
 * a press on it reaches it.
 */
function separateClickableChild(el: Element, style: CSSStyleDeclaration): boolean {
  if (style.display === 'inline' || style.display === 'contents' || !ownText(el)) return false;
  // Headings and paragraphs are a clickable card's content, not controls of their own.
  if (TEXT_CONTENT.has(el.localName)) return false;
  let root: Element = el;
  for (
    let parent = el.parentElement;
    parent !== null && pointerCursor(parent);
    parent = parent.parentElement
  ) {
    if (parent.matches(CONTROL_SELECTOR) || widgetRole(parent)) return false;
    root = parent;
  }
  if (root === el || collapsedText(root) === collapsedText(el)) return false;
  return hitAtCenter(el);
}

export function actionableKind(el: Element, style: CSSStyleDeclaration): ActionableKind | null {
  if (nativeControl(el) || widgetRole(el) || isEditableRoot(el)) return 'control';
  const tag = el.localName;
  // The page itself and frames are where controls are, not controls.
  if (tag === 'body' || tag === 'html' || isFrame(el)) return null;
  const pointer = style.cursor === 'pointer';
  if (hreflessAnchor(el) || el.hasAttribute('onclick')) return 'pointer';
  if (inTabOrder(el)) return pointer ? 'pointer' : 'focusable';
  if (!pointer) return null;
  if (pointerCursor(el.parentElement)) return separateClickableChild(el, style) ? 'pointer' : null;
  // A pointer cursor that starts here: a clickable box, with text or an icon, holding no controls.
  return el.querySelector(CONTROL_SELECTOR) === null ? 'pointer' : null;
}

export function isInteractive(el: Element, style: CSSStyleDeclaration): boolean {
  return actionableKind(el, style) !== null;
}
