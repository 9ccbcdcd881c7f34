/**
 * When an implicitly started daemon has nobody left to serve. The daemon exists for agents, so only
 * agents count: a command on POST / that passed the gate (answered, refused or replayed alike) restarts
 * the idle period, and while one is in flight — waiting for its pacing slot, its tab, its browser — the
 * period does not run at all. Everything else is not a client: a connected extension or CDP browser
 * (a driver is a resource the daemon uses, and a browser with the extension is open all day), its
 * pings, a pairing claim, and open tabs (a client killed without closing its session would otherwise
 * hold the daemon and its browser for ever; an agent mid-task calls far more often than the period).
 *
 * One timer at a time, re-armed from the monotonic clock when it fires, so a burst of requests costs
 * no timer churn and a wall-clock jump cannot stop the daemon early.
 */
import type { Clock } from './clock';

export class IdleExit {
  private inFlight = 0;
  private lastMono: number;
  private timer: NodeJS.Timeout | null = null;
  private finished = false;

  constructor(
    private readonly clock: Clock,
    /** null: the daemon never stops by itself (BPROXY_IDLE_EXIT=off). */
    readonly afterMs: number | null,
    private readonly onIdle: (idleMs: number) => void,
  ) {
    this.lastMono = clock.monotonic();
    this.schedule();
  }

  /** An agent request reached the command route (its body may still be refused). */
  touch(): void {
    this.lastMono = this.clock.monotonic();
  }

  /** Runs `work` as a request in flight: the idle period is held until it settles, then starts over. */
  async during<T>(work: () => Promise<T>): Promise<T> {
    this.inFlight++;
    this.touch();
    try {
      return await work();
    } finally {
      this.inFlight--;
      this.touch();
      this.schedule();
    }
  }

  /**
   * Time left before the daemon stops; null while a request is in flight, or when it never stops.
   * `asking`: requests in flight to leave out — debug.status counts as if it had just ended.
   */
  exitInMs(asking = 0): number | null {
    if (this.afterMs === null || this.inFlight > asking || this.finished) return null;
    return Math.max(0, Math.round(this.lastMono + this.afterMs - this.clock.monotonic()));
  }

  /** The daemon is stopping for another reason: no more timers. */
  stop(): void {
    this.finished = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (this.afterMs === null || this.finished || this.inFlight > 0 || this.timer !== null) return;
    const left = this.lastMono + this.afterMs - this.clock.monotonic();
    this.timer = setTimeout(() => this.fire(), Math.max(0, Math.ceil(left)));
    this.timer.unref();
  }

  private fire(): void {
    this.timer = null;
    // A request in flight re-schedules when it ends; a later request moved lastMono: wait again.
    if (this.inFlight > 0 || this.afterMs === null) return;
    const idleMs = this.clock.monotonic() - this.lastMono;
    if (idleMs < this.afterMs) return this.schedule();
    this.finished = true;
    this.onIdle(Math.round(idleMs));
  }
}
