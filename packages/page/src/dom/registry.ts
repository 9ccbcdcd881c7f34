/**
 * Refs for elements returned by reads, valid for the document the page script lives in. The same
 * element keeps its ref across reads; refs are held weakly so a removed subtree can be freed.
 * Each document numbers from its own random base, so a ref minted on an earlier page is recognised
 * as foreign (stale) here instead of matching an unrelated element that happens to share a number.
 */

const MAX_BASE = 800_000_000;

export class ElementRegistry {
  private readonly base = 1 + Math.floor(Math.random() * MAX_BASE);
  private next = this.base;
  private readonly byRef = new Map<string, WeakRef<Element>>();
  private readonly byElement = new WeakMap<Element, string>();

  refFor(el: Element): string {
    const known = this.byElement.get(el);
    if (known !== undefined) return known;
    const ref = `r${this.next++}`;
    this.byRef.set(ref, new WeakRef(el));
    this.byElement.set(el, ref);
    return ref;
  }

  /** The element behind `ref` if it is still part of a live document, else null. */
  lookup(ref: string): Element | null {
    const el = this.byRef.get(ref)?.deref();
    if (el === undefined) return null;
    if (!el.isConnected || el.ownerDocument.defaultView === null) return null;
    return el;
  }

  /** Whether this document ever issued `ref` (it may since have been removed from the DOM). */
  issued(ref: string): boolean {
    const n = Number(ref.slice(1));
    return Number.isInteger(n) && n >= this.base && n < this.next;
  }

  get size(): number {
    return this.byRef.size;
  }
}
