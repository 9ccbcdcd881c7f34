/** The ring of the last 200 request traces behind `debug.last`. In memory; resets on restart. */
import type { Trace } from '@bproxy/protocol';

export class TraceRing {
  private readonly items: Trace[] = [];

  constructor(private readonly capacity = 200) {}

  push(trace: Trace): void {
    this.items.push(trace);
    if (this.items.length > this.capacity) this.items.shift();
  }

  /** Newest first. */
  last(limit = this.capacity): Trace[] {
    return this.items.slice(-limit).reverse();
  }
}
