/**
 * Which elements a person could act on: native controls, links, ARIA widgets, contenteditable regions,
 * and elements that only look clickable (onclick, a focusable pointer-cursor box).
 */
import { isEditableRoot } from './aria';

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

const NATIVE_SELECTOR = 'a[href],area[href],button,input,select,textarea,summary,[role=button],[role=link]';

export function isInteractive(el: Element, style: CSSStyleDeclaration): boolean {
  const tag = el.localName;
  switch (tag) {
    case 'a':
    case 'area':
      if (el.hasAttribute('href')) return true;
      break;
    case 'button':
    case 'select':
    case 'textarea':
      return true;
    case 'input':
      return (el as HTMLInputElement).type !== 'hidden';
    case 'summary':
      return el.parentElement?.localName === 'details';
  }
  const role = el.getAttribute('role');
  if (role !== null && WIDGET_ROLES.has(role.trim().split(/\s+/)[0] ?? '')) return true;
  if (isEditableRoot(el)) return true;
  if (el.hasAttribute('onclick')) return true;
  if (style.cursor !== 'pointer') return false;
  const tabindex = el.getAttribute('tabindex');
  if (tabindex !== null && Number(tabindex) >= 0) return true;
  // A pointer cursor that starts here (not inherited from a clickable parent) on a box with no controls inside.
  const parent = el.parentElement;
  if (parent !== null) {
    const view = el.ownerDocument.defaultView;
    if (view !== null && view.getComputedStyle(parent).cursor === 'pointer') return false;
  }
  return el.querySelector(NATIVE_SELECTOR) === null && (el.textContent ?? '').trim().length > 0;
}
