/**
 * A CSS selector that finds an element again after its ref is gone (a new document of the same page,
 * a re-rendered list). Within each root it prefers a unique id, test id or name, else a path of
 * :nth-of-type steps up to the nearest ancestor with a unique id. Parts for nested shadow roots and
 * same-origin frames are joined with ` >>> `.
 */
import { isFrame } from './flat-tree';

export const PIERCE = ' >>> ';

type Root = Document | ShadowRoot;

function rootOf(el: Element): Root {
  return el.getRootNode() as Root;
}

function unique(root: Root, selector: string): boolean {
  try {
    return root.querySelectorAll(selector).length === 1;
  } catch {
    return false;
  }
}

/** Ids that look generated (long digit runs, hashes) change between loads; a path is more robust then. */
export function stableId(id: string): boolean {
  return id.length > 0 && id.length <= 64 && !/\d{4,}|[0-9a-f]{8,}|^:r|^radix-|^headlessui-/i.test(id);
}

function attrSelector(el: Element, root: Root): string | null {
  const tag = el.localName;
  const id = el.id;
  if (id && stableId(id)) {
    const s = `#${CSS.escape(id)}`;
    if (unique(root, s)) return s;
  }
  for (const attr of ['data-testid', 'data-test', 'data-qa', 'name', 'aria-label']) {
    const value = el.getAttribute(attr);
    if (value && value.length <= 80) {
      const s = `${tag}[${attr}="${CSS.escape(value)}"]`;
      if (unique(root, s)) return s;
    }
  }
  return null;
}

function nthStep(el: Element): string {
  const tag = el.localName;
  const parent = el.parentElement;
  if (parent === null) return CSS.escape(tag);
  let index = 0;
  let count = 0;
  for (const sibling of Array.from(parent.children)) {
    if (sibling.localName !== tag) continue;
    count++;
    if (sibling === el) index = count;
  }
  return count > 1 ? `${CSS.escape(tag)}:nth-of-type(${index})` : CSS.escape(tag);
}

/** A selector for `el` valid within its own root (document or shadow root). */
function selectorInRoot(el: Element): string {
  const root = rootOf(el);
  const direct = attrSelector(el, root);
  if (direct) return direct;
  const steps: string[] = [];
  let node: Element | null = el;
  while (node !== null) {
    if (node !== el) {
      const anchor = attrSelector(node, root);
      if (anchor) {
        steps.unshift(anchor);
        break;
      }
    }
    steps.unshift(nthStep(node));
    if (node.localName === 'html' || node.parentElement === null) break;
    node = node.parentElement;
  }
  const path = steps.join(' > ');
  // A path from a shadow root's top child needs :scope semantics; querySelector on the root handles it.
  return path;
}

/** The outer element that holds `root`: the shadow host, or the frame element of a document. */
function hostOf(root: Root): Element | null {
  if (root.nodeType === Node.DOCUMENT_FRAGMENT_NODE) return (root as ShadowRoot).host;
  try {
    return (root as Document).defaultView?.frameElement ?? null;
  } catch {
    return null;
  }
}

/** The full selector from the top document down to `el`, with ` >>> ` between roots. */
export function buildSelector(el: Element): string {
  const parts: string[] = [];
  let node: Element | null = el;
  while (node !== null) {
    parts.unshift(selectorInRoot(node));
    node = hostOf(rootOf(node));
    if (node !== null && !isFrame(node) && node.shadowRoot === null) break;
  }
  return parts.join(PIERCE);
}
