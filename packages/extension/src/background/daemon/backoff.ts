/**
 * Reconnect delays: exponential growth with full jitter (a uniform draw between 0 and the current
 * ceiling), capped. The first retry after a connection that was up is immediate, so a daemon restart
 * costs no waiting; only repeated failures slow down. Pure: the random source is injected.
 */

export interface BackoffOptions {
  baseMs: number;
  capMs: number;
  random: () => number;
}

export const DEFAULT_BACKOFF: Omit<BackoffOptions, 'random'> = { baseMs: 250, capMs: 10_000 };

export class Backoff {
  private failures = 0;

  constructor(private readonly options: BackoffOptions) {}

  /** The delay before the next attempt; every call counts one more failed attempt. */
  next(): number {
    const attempt = this.failures;
    this.failures += 1;
    if (attempt === 0) return 0;
    const ceiling = Math.min(this.options.capMs, this.options.baseMs * 2 ** Math.min(attempt - 1, 30));
    return Math.floor(this.options.random() * ceiling);
  }

  /** The ceiling the next delay is drawn under (for status displays). */
  ceiling(): number {
    if (this.failures === 0) return 0;
    return Math.min(this.options.capMs, this.options.baseMs * 2 ** Math.min(this.failures - 1, 30));
  }

  reset(): void {
    this.failures = 0;
  }

  get attempts(): number {
    return this.failures;
  }
}
