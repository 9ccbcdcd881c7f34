/**
 * State the page script keeps for its document between calls: the element registry, where the
 * synthetic pointer is (so the next hover or click travels from there and leaves what it was over),
 * the document's id and the count of navigations it asked for.
 */
import { countNavigations } from './actions/navigation-watch';
import { ElementRegistry } from './dom/registry';
import type { PointerState } from './input/pointer';

export interface PageContext {
  readonly registry: ElementRegistry;
  readonly pointer: PointerState;
  /** Random per document: what a resume of human-required detection is tied to (see detect-human.ts). */
  readonly documentId: string;
  /** The navigations the document asked for so far (navigation-watch.ts). */
  readonly navigations: () => number;
  /** Values filled from secrets in this document: every answer masks them (fill-secret.ts). */
  readonly secrets: string[];
}

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function createContext(): PageContext {
  return {
    registry: new ElementRegistry(),
    pointer: { hovered: null, at: null },
    documentId: randomId(),
    navigations: countNavigations(),
    secrets: [],
  };
}
