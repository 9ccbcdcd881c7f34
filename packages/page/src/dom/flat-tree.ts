/**
 * The tree a person sees: open shadow roots replace their host's children (slots pull the light children
 * in), and same-origin iframes continue into their document. Cross-origin frames cannot be entered; they
 * are recorded so reads can report them instead of failing silently.
 */

export class FrameReport {
  private readonly srcs = new Set<string>();
  add(frame: Element): void {
    this.srcs.add(frame.getAttribute('src') ?? '');
  }
  /** The `crossOriginFrames` field of a read result, absent when there are none. */
  field(): { crossOriginFrames?: { src: string }[] } {
    if (this.srcs.size === 0) return {};
    return { crossOriginFrames: [...this.srcs].map((src) => ({ src })) };
  }
}

export function isElement(node: Node | null | undefined): node is Element {
  return node !== null && node !== undefined && node.nodeType === Node.ELEMENT_NODE;
}

export function isFrame(el: Element): el is HTMLIFrameElement {
  return el.localName === 'iframe' || el.localName === 'frame';
}

/** The document of a same-origin frame, or null when the frame is cross-origin (or sandboxed away). */
export function frameDocument(frame: Element): Document | null {
  try {
    return (frame as HTMLIFrameElement).contentDocument;
  } catch {
    return null;
  }
}

/** Children in the flat tree; `frames` collects cross-origin frames met on the way. */
export function flatChildren(node: Node, frames?: FrameReport): readonly Node[] {
  if (isElement(node)) {
    if (node.shadowRoot) return Array.from(node.shadowRoot.childNodes);
    if (node.localName === 'slot') {
      const assigned = (node as HTMLSlotElement).assignedNodes();
      return assigned.length > 0 ? assigned : Array.from(node.childNodes);
    }
    if (isFrame(node)) {
      const doc = frameDocument(node);
      if (doc === null) {
        frames?.add(node);
        return [];
      }
      return doc.body ? [doc.body] : doc.documentElement ? [doc.documentElement] : [];
    }
  }
  return Array.from(node.childNodes);
}

/** The parent in the composed tree, stepping out of shadow roots and same-origin frames. */
export function composedParent(el: Element): Element | null {
  if (el.parentElement) return el.parentElement;
  const parent = el.parentNode;
  // nodeType, not instanceof: a shadow root inside a frame comes from another realm.
  if (parent !== null && parent.nodeType === Node.DOCUMENT_FRAGMENT_NODE && 'host' in parent)
    return (parent as ShadowRoot).host;
  const view = el.ownerDocument.defaultView;
  try {
    return view?.frameElement ?? null;
  } catch {
    return null;
  }
}

/** Whether `inner` is `outer` or lies below it in the composed tree. */
export function composedContains(outer: Element, inner: Element): boolean {
  let node: Element | null = inner;
  while (node !== null) {
    if (node === outer) return true;
    node = composedParent(node);
  }
  return false;
}

/** All elements below `root` in flat-tree order (root excluded), depth first. */
export function* deepElements(root: Node, frames?: FrameReport): Generator<Element> {
  const stack: Node[] = [...flatChildren(root, frames)].reverse();
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isElement(node)) continue;
    yield node;
    const children = flatChildren(node, frames);
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (child !== undefined) stack.push(child);
    }
  }
}

/** The focused element, looking through shadow roots and same-origin frames. */
export function deepActiveElement(doc: Document = document): Element | null {
  let active: Element | null = doc.activeElement;
  for (;;) {
    if (active === null) return null;
    if (active.shadowRoot?.activeElement) {
      active = active.shadowRoot.activeElement;
      continue;
    }
    if (isFrame(active)) {
      const inner = frameDocument(active);
      if (inner?.activeElement && inner.activeElement !== inner.body) {
        active = inner.activeElement;
        continue;
      }
    }
    return active;
  }
}

/** Every open shadow root and same-origin frame document below `root`, in document order. */
export function* nestedRoots(root: Document | ShadowRoot): Generator<Document | ShadowRoot> {
  const walker = root.querySelectorAll('*');
  for (const el of Array.from(walker)) {
    if (el.shadowRoot) {
      yield el.shadowRoot;
      yield* nestedRoots(el.shadowRoot);
    }
    if (isFrame(el)) {
      const doc = frameDocument(el);
      if (doc !== null) {
        yield doc;
        yield* nestedRoots(doc);
      }
    }
  }
}
