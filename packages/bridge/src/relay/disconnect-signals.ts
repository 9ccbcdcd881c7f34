/**
 * Telling "the browser is gone" from "one target went away". Weak signals (Inspector.detached,
 * Target.detachedFromTarget) happen all the time when tabs close, so alone they never end anything;
 * the last 10 are kept with their time. A strong signal — the browser connection closing without us
 * closing it — means the connection is unusable; the weak signals seen in the 2 s before it say
 * whether the browser shut its targets down first (closed by the user) or vanished at once (killed,
 * crashed, network). Recovery does not depend on which: both are logged as `disconnectSignals`.
 */

export const WEAK_SIGNAL_METHODS: readonly string[] = ['Inspector.detached', 'Target.detachedFromTarget'];
export const RING_SIZE = 10;
export const CORROBORATION_WINDOW_MS = 2_000;

export interface WeakSignal {
  readonly method: string;
  readonly at: number;
  /** The event as received, for the log (reasons are observational only). */
  readonly event: string;
}

export interface DisconnectVerdict {
  /**
   * browser-closed: weak signals came shortly before the strong one (the browser shut its targets
   * down, then went); connection-lost: the connection dropped with no warning (killed, crashed,
   * network) — the browser may even still run, which recovery finds out by attaching first.
   */
  readonly cause: 'browser-closed' | 'connection-lost';
  /** Method names of the corroborating weak signals, then the strong signal. */
  readonly signals: readonly string[];
}

export class DisconnectSignals {
  private readonly ring: WeakSignal[] = [];

  constructor(private readonly now: () => number = () => performance.now()) {}

  recordWeak(method: string, event: string): void {
    this.ring.push({ method, at: this.now(), event });
    if (this.ring.length > RING_SIZE) this.ring.shift();
  }

  get recent(): readonly WeakSignal[] {
    return this.ring;
  }

  /** The verdict for a strong signal observed now. */
  strong(name: string): DisconnectVerdict {
    const at = this.now();
    const near = this.ring.filter((s) => at - s.at <= CORROBORATION_WINDOW_MS);
    return {
      cause: near.length > 0 ? 'browser-closed' : 'connection-lost',
      signals: [...near.map((s) => s.method), name],
    };
  }

  clear(): void {
    this.ring.length = 0;
  }
}
