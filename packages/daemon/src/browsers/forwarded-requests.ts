/**
 * In-flight forwarded requests. Each entry waits for its driver's answer until its deadline; entries of
 * a disconnected driver wait for it to come back and are re-sent then (the driver's dedupe table keeps
 * a replay from executing twice). An entry whose deadline passed is answered TIMEOUT and removed, so it
 * is never sent again; a late answer to it is dropped. Admission is bounded: 100 requests in flight.
 */
import { makeError, type BproxyError, type BproxyForwardedRequest } from '@bproxy/protocol';

export type DriverOutcome =
  /** `news`: the console errors and failed requests the action caused, as the driver said them. */
  { ok: true; data: unknown; news?: string } | { ok: false; error: BproxyError };

interface Entry {
  request: BproxyForwardedRequest;
  clientKey: string;
  deadlineMono: number;
  startedMono: number;
  settle: (outcome: DriverOutcome) => void;
  timer: NodeJS.Timeout;
}

export interface PendingEvents {
  /** A TIMEOUT: the deadline passed in flight, or the driver answered TIMEOUT itself. */
  timeout(id: string, elapsedMs: number, stage: 'in_flight' | 'driver'): void;
  replay(id: string, clientKey: string): void;
  late(id: string, clientKey: string): void;
}

export const MAX_PENDING = 100;

export class ForwardedRequests {
  private readonly entries = new Map<string, Entry>();
  private admitted = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly monotonic: () => number,
    private readonly events: PendingEvents,
    private readonly max = MAX_PENDING,
    private readonly wallNow: () => number = Date.now,
  ) {}

  /** Reserves room for one forwarded request for its whole life (pacing, queue, flight). */
  admit(): boolean {
    if (this.admitted >= this.max) return false;
    this.admitted++;
    return true;
  }

  release(): void {
    this.admitted = Math.max(0, this.admitted - 1);
    if (this.admitted === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const w of waiters) w();
    }
  }

  get inFlight(): number {
    return this.admitted;
  }

  get awaitingAnswer(): number {
    return this.entries.size;
  }

  /** Whether a request sent to this driver still waits for its answer. */
  hasEntriesFor(clientKey: string): boolean {
    for (const entry of this.entries.values()) if (entry.clientKey === clientKey) return true;
    return false;
  }

  /** Resolves once nothing is admitted (used by shutdown to drain). */
  whenIdle(): Promise<void> {
    if (this.admitted === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Registers the request and sends it with `deliver` (which returns false if the driver is not connected
   * right now; the entry then waits for `replay`). Resolves with the driver's outcome or TIMEOUT.
   */
  send(
    clientKey: string,
    request: BproxyForwardedRequest,
    deadlineMono: number,
    deliver: () => boolean,
  ): Promise<DriverOutcome> {
    const startedMono = this.monotonic();
    return new Promise<DriverOutcome>((resolve) => {
      const expire = (): void => {
        const entry = this.entries.get(request.id);
        if (entry?.timer !== timer) return;
        // Node timers count from the event loop's cached time and can fire a little early; a driver
        // checking the deadline against its own clock could then still start the request after the
        // agent was told TIMEOUT. Only the monotonic clock decides that the deadline has passed.
        const left = deadlineMono - this.monotonic();
        if (left > 0) {
          timer = setTimeout(expire, Math.ceil(left));
          entry.timer = timer;
          return;
        }
        this.entries.delete(request.id);
        const elapsed = Math.round(this.monotonic() - startedMono);
        this.events.timeout(request.id, elapsed, 'in_flight');
        resolve({
          ok: false,
          error: makeError(
            'TIMEOUT',
            `no answer from the browser within the deadline (${elapsed} ms in flight); it will not run later`,
          ),
        });
      };
      let timer = setTimeout(expire, Math.max(0, Math.ceil(deadlineMono - startedMono)));
      this.entries.set(request.id, { request, clientKey, deadlineMono, startedMono, settle: resolve, timer });
      deliver();
    });
  }

  /** A driver answered. Answers from another client, duplicates and late answers are dropped. */
  resolve(clientKey: string, id: string, outcome: DriverOutcome): boolean {
    const entry = this.entries.get(id);
    if (!entry || entry.clientKey !== clientKey) {
      this.events.late(id, clientKey);
      return false;
    }
    clearTimeout(entry.timer);
    this.entries.delete(id);
    if (!outcome.ok && outcome.error.code === 'TIMEOUT')
      this.events.timeout(id, Math.round(this.monotonic() - entry.startedMono), 'driver');
    entry.settle(outcome);
    return true;
  }

  /**
   * Re-sends every live entry of a driver that (re)connected. Expired entries are already gone. The
   * wall-clock deadline a driver checks is re-derived from the monotonic one at each send, so a clock
   * jump since the first send can neither expire a live request nor extend a dead one.
   */
  replay(clientKey: string, deliver: (request: BproxyForwardedRequest) => void): number {
    const now = this.wallNow();
    let n = 0;
    for (const entry of this.entries.values()) {
      if (entry.clientKey !== clientKey) continue;
      this.events.replay(entry.request.id, clientKey);
      const left = Math.max(0, Math.floor(entry.deadlineMono - this.monotonic()));
      deliver({ ...entry.request, deadline: now + left });
      n++;
    }
    return n;
  }

  /** Fails every entry of a driver at once (it went away for good). */
  failClient(clientKey: string, error: BproxyError): void {
    for (const [id, entry] of [...this.entries]) {
      if (entry.clientKey !== clientKey) continue;
      clearTimeout(entry.timer);
      this.entries.delete(id);
      entry.settle({ ok: false, error });
    }
  }

  /** Fails everything (daemon stopping after its drain period). */
  failAll(error: BproxyError): void {
    for (const key of new Set([...this.entries.values()].map((e) => e.clientKey)))
      this.failClient(key, error);
  }
}
