/**
 * The tree a person sees: open shadow roots replace their host's children (slots pull the light children
 * in), and same-origin iframes continue into their document. Cross-origin frames cannot be entered; they
 * are recorded so reads can report them instead of failing silently.
 */

/**
 * A cross-origin frame a read met and could not enter, shown on the page: the driver reads it in the
 * frame itself and puts what it holds where `slot` stands (see SNAPSHOT_FRAME_OPEN). `ref` is the frame
 * element's ref in this document.
 */
export interface FrameSlot {
  slot: number;
  ref: string;
  src: string;
}

/**
 * Whether a person sees the frame, so that the driver reads it: at least 4 px each way (a text run
 * under 4 px high is left out too), not transparent or hidden by itself or an ancestor, not wholly off
 * the page. Tracking pixels and frames a page hides to speak to the agent alone are not read.
 */
export function frameShown(frame: Element): boolean {
  const rect = frame.getBoundingClientRect();
  if (rect.width < 4 || rect.height < 4) return false;
  const view = frame.ownerDocument.defaultView;
  if (view === null) return false;
  if (rect.right + view.scrollX <= 0 || rect.bottom + view.scrollY <= 0) return false;
  return frame.checkVisibility({ opacityProperty: true, visibilityProperty: true });
}

export class FrameReport {
  private readonly frames: Element[] = [];
  /** The frame's slot number in this read (the same frame met twice keeps its number). */
  add(frame: Element): number {
    const known = this.frames.indexOf(frame);
    if (known >= 0) return known;
    return this.frames.push(frame) - 1;
  }
  /**
   * The `crossOriginFrames` field of a read result (frames not shown, which no driver reads) and the
   * slots of the shown ones for the driver (`frameSlots`, which the driver replaces by what it read);
   * both absent when there are none. `refFor` mints the frame element's ref.
   */
  field(refFor?: (el: Element) => string): {
    crossOriginFrames?: { src: string; reason?: string }[];
    frameSlots?: FrameSlot[];
  } {
    const hidden = new Set<string>();
    const slots: FrameSlot[] = [];
    this.frames.forEach((frame, slot) => {
      const src = frame.getAttribute('src') ?? '';
      if (refFor === undefined || !frameShown(frame)) {
        hidden.add(src);
        return;
      }
      slots.push({ slot, ref: refFor(frame), src });
    });
    return {
      ...(hidden.size === 0
        ? {}
        : {
            crossOriginFrames: [...hidden].map((src) =>
              refFor === undefined ? { src } : { src, reason: 'not shown' },
            ),
          }),
      ...(slots.length === 0 ? {} : { frameSlots: slots }),
    };
  }
}

export function isElement(node: Node | null | undefined): node is Element {
  return node !== null && node !== undefined && node.nodeType === Node.ELEMENT_NODE;
}

export function isFrame(el: Element): el is HTMLIFrameElement {
  return el.localName === 'iframe' || el.localName === 'frame';
}

/** A document's origin as its window serializes it ('null' when opaque, or when it has no window). */
function originOf(doc: Document): string {
  try {
    return doc.defaultView?.origin ?? 'null';
  } catch {
    return 'null';
  }
}

/**
 * The document of a same-origin frame, or null when the frame is cross-origin (or sandboxed away). A
 * script with universal access (the CDP driver's isolated world) can enter a cross-origin frame its own
 * renderer holds (another port of the same site): it is still another origin, read by the driver in the
 * frame itself and marked with its origin, as in every driver. An opaque origin is never the same.
 */
export function frameDocument(frame: Element): Document | null {
  let doc: Document | null;
  try {
    doc = (frame as HTMLIFrameElement).contentDocument;
  } catch {
    return null;
  }
  if (doc === null) return null;
  const outer = originOf(frame.ownerDocument);
  return outer !== 'null' && outer === originOf(doc) ? doc : null;
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
