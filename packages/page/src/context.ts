/**
 * State the page script keeps for its document between calls: the element registry, and where the
 * synthetic pointer is (so the next hover or click travels from there and leaves what it was over).
 */
import { ElementRegistry } from './dom/registry';
import type { PointerState } from './input/pointer';

export interface PageContext {
  readonly registry: ElementRegistry;
  readonly pointer: PointerState;
}

export function createContext(): PageContext {
  return { registry: new ElementRegistry(), pointer: { hovered: null, at: null } };
}
