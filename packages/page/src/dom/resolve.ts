/**
 * Turning an ElementTarget into an element: by its ref when it has one (the very node a read saw, or
 * ELEMENT_HANDLE_STALE), else by its selector.
 * Selectors pierce open shadow roots and same-origin frames with ` >>> `; a plain selector that matches
 * nothing in the document is also tried inside every nested root, as an agent would expect.
 */
import { PageError } from '../errors';
import type { ElementTarget } from '../params';
import { frameDocument, isFrame, nestedRoots } from './flat-tree';
import type { ElementRegistry } from './registry';

type Root = Document | ShadowRoot;

function query(root: Root, selector: string): Element | null {
  try {
    return root.querySelector(selector);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new PageError('BAD_REQUEST', `invalid selector "${selector}": ${message}`);
  }
}

/** The roots one level inside `el`: its open shadow root and, for a same-origin frame, its document. */
function innerRoot(el: Element): Root | null {
  if (el.shadowRoot) return el.shadowRoot;
  if (isFrame(el)) return frameDocument(el);
  return null;
}

/** First element matching a (possibly ` >>> `-joined) selector below `scope`, or null. */
export function querySelectorDeep(selector: string, scope: Root = document): Element | null {
  const parts = selector.split(/\s*>>>\s*/).filter((p) => p.length > 0);
  if (parts.length === 0) throw new PageError('BAD_REQUEST', `invalid selector "${selector}"`);
  if (parts.length === 1) {
    const [only] = parts;
    if (only === undefined) return null;
    const direct = query(scope, only);
    if (direct) return direct;
    for (const root of nestedRoots(scope)) {
      const found = query(root, only);
      if (found) return found;
    }
    return null;
  }
  let root: Root | null = scope;
  let found: Element | null = null;
  for (const part of parts) {
    if (root === null) return null;
    found = query(root, part);
    if (found === null) return null;
    root = innerRoot(found);
  }
  return found;
}

/** Resolve a target or throw ELEMENT_HANDLE_STALE / ELEMENT_NOT_FOUND. */
export function resolveTarget(target: ElementTarget, registry: ElementRegistry): Element {
  if (target.ref?.includes('@') === true)
    throw new PageError(
      'BAD_REQUEST',
      'this action does not reach into cross-origin frames; read, click, fill, select, type or press there',
    );
  if (target.ref !== undefined) {
    const el = registry.lookup(target.ref);
    if (el) return el;
    // The node the ref named is gone: removed, or replaced by a re-render (an equal-looking new node
    // is another node), or the page itself is another document. Never fall back to the selector: it
    // could match a look-alike (the next row of a re-rendered list) and act on the wrong element.
    throw new PageError(
      'ELEMENT_HANDLE_STALE',
      registry.issued(target.ref)
        ? `element ref ${target.ref} is gone: the page removed or replaced that element (read again)`
        : `element ref ${target.ref} is not part of this page any more (it navigated)`,
    );
  }
  const selector = target.selector ?? '';
  const el = querySelectorDeep(selector);
  if (el === null) throw new PageError('ELEMENT_NOT_FOUND', `no element matches "${selector}"`);
  return el;
}

/** The node reads start from: the target's element (a frame's document for an iframe), or the body. */
export function readRoot(target: ElementTarget | undefined, registry: ElementRegistry): Node {
  if (target === undefined) return document.body ?? document.documentElement;
  const el = resolveTarget(target, registry);
  if (isFrame(el)) {
    const doc = frameDocument(el);
    if (doc?.body) return doc.body;
  }
  return el;
}
