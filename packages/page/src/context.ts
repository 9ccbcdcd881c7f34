/**
 * State the page script keeps for its document between calls: the element registry, and the element
 * the synthetic pointer is over (so the next hover or click can leave it first).
 */
import { ElementRegistry } from './dom/registry';

export interface PageContext {
  readonly registry: ElementRegistry;
  hovered: Element | null;
}

export function createContext(): PageContext {
  return { registry: new ElementRegistry(), hovered: null };
}
