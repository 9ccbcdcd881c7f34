/**
 * Request ids this driver has seen: the dedupe table that makes a replayed request safe. A replay of
 * an executed id gets the recorded answer; a replay while it runs joins the run; nothing runs twice.
 * In memory: the CDP driver lives in the daemon's process, so no driver restart can outlive it.
 */
import type { DriverResponseMessage } from '@bproxy/protocol';
import type { ExecutedOutcome, ExecutedRequests, Execute } from '@bproxy/driver';

interface Entry<R> {
  promise: Promise<R>;
  settledAt?: number;
}

export class RequestLedger<R> {
  private readonly entries = new Map<string, Entry<R>>();

  constructor(
    private readonly maxEntries = 1000,
    private readonly ttlMs = 10 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** `execute` must not reject: failures are answers too, recorded like successes. */
  run(id: string, execute: () => Promise<R>): Promise<R> {
    const existing = this.entries.get(id);
    if (existing !== undefined) return existing.promise;
    this.prune();
    const entry: Entry<R> = { promise: execute() };
    void entry.promise.then(() => {
      entry.settledAt = this.now();
    });
    this.entries.set(id, entry);
    return entry.promise;
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  get size(): number {
    return this.entries.size;
  }

  private prune(): void {
    const now = this.now();
    for (const [id, entry] of this.entries) {
      if (entry.settledAt !== undefined && now - entry.settledAt > this.ttlMs) this.entries.delete(id);
    }
    // Oldest first (Map keeps insertion order); running entries are never evicted.
    for (const [id, entry] of this.entries) {
      if (this.entries.size < this.maxEntries) break;
      if (entry.settledAt !== undefined) this.entries.delete(id);
    }
  }
}

/** The driver kit's executed-request table on a RequestLedger: nothing is ever resumed in memory. */
export class LedgerTable implements ExecutedRequests {
  constructor(private readonly ledger = new RequestLedger<DriverResponseMessage>()) {}

  async run(id: string, execute: Execute): Promise<ExecutedOutcome> {
    const replayed = this.ledger.has(id);
    const response = await this.ledger.run(id, () => execute(false));
    return { response, replayed };
  }
}
