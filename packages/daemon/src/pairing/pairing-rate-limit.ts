/**
 * Global throttle for /pair/claim: at most 5 route-handled failures in any 60 s window; while the
 * window is full every claim is refused, the right code included. Deliberately global, not per
 * source: on localhost the source says little. In memory only; resets on restart. Gate rejections
 * never reach the route, so they cannot burn it.
 */
export class PairingRateLimit {
  private failures: number[] = [];

  constructor(
    private readonly monotonic: () => number,
    private readonly maxFailures = 5,
    private readonly windowMs = 60_000,
  ) {}

  isLimited(): boolean {
    this.prune();
    return this.failures.length >= this.maxFailures;
  }

  recordFailure(): void {
    this.prune();
    this.failures.push(this.monotonic());
  }

  private prune(): void {
    const cutoff = this.monotonic() - this.windowMs;
    this.failures = this.failures.filter((t) => t > cutoff);
  }
}
