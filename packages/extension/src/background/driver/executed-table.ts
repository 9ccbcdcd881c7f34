/**
 * Exactly-once execution of forwarded requests: the driver kit's ExecutedRequests, kept in
 * chrome.storage.session. The daemon re-sends pending requests after a socket drop, and the worker may
 * be stopped and restarted between receiving a request and answering it, so every request id is
 * looked up here first:
 * - an execution still running in this worker is joined (the same promise);
 * - a recorded answer in chrome.storage.session (which survives a worker restart, not a browser
 *   restart) is returned as is, without acting again;
 * - a `running` mark left by a previous worker life means the action may have started: the caller is
 *   told (`resumed`) and decides what is safe (page actions are deduplicated again inside the page).
 * The table is bounded by count, age and bytes: screenshots are large, the session area holds 10 MB.
 */
import type { Execute, ExecutedOutcome, ExecutedRequests } from '@bproxy/driver';
import { makeError, type DriverResponseMessage } from '@bproxy/protocol';
import type { StorageArea } from '../../chrome-api';

const INDEX_KEY = 'executed:index';
const entryKey = (id: string) => `executed:${id}`;

type IndexRow = [id: string, at: number, bytes: number];
type Entry =
  | { state: 'running'; at: number }
  | { state: 'done'; at: number; response: DriverResponseMessage }
  /** Answered, but too large to keep: reads are run again on replay, writes never are. */
  | { state: 'done-unrecorded'; at: number };

export interface ExecutedTableOptions {
  maxEntries: number;
  ttlMs: number;
  maxEntryBytes: number;
  maxTotalBytes: number;
  now: () => number;
}

/** Longer than the longest deadline (30 min), so a replay can never outlive its record. */
export const DEFAULT_TABLE_OPTIONS: ExecutedTableOptions = {
  maxEntries: 500,
  ttlMs: 35 * 60_000,
  maxEntryBytes: 512 * 1024,
  maxTotalBytes: 6 * 1024 * 1024,
  now: Date.now,
};

/** The driver kit's executed-request table on chrome.storage.session. */
export class ExecutedTable implements ExecutedRequests {
  private readonly inFlight = new Map<string, Promise<ExecutedOutcome>>();
  private index: IndexRow[] | null = null;
  /** Serializes index writes so that two finishing requests cannot drop each other's rows. */
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly area: StorageArea,
    private readonly options: ExecutedTableOptions = DEFAULT_TABLE_OPTIONS,
    private readonly onStorageError: (error: unknown) => void = () => {},
  ) {}

  /**
   * Runs `execute` at most once per id. `rerunnable` says whether the action may run again when its
   * answer was too large to keep (reads only).
   */
  run(id: string, execute: Execute, rerunnable: boolean): Promise<ExecutedOutcome> {
    const joined = this.inFlight.get(id);
    if (joined) return joined;
    // Registered before the first await: a replay arriving a microtask later must join, not start.
    const running = this.lookupThenRun(id, execute, rerunnable).finally(() => this.inFlight.delete(id));
    this.inFlight.set(id, running);
    return running;
  }

  get inFlightCount(): number {
    return this.inFlight.size;
  }

  private async lookupThenRun(id: string, execute: Execute, rerunnable: boolean): Promise<ExecutedOutcome> {
    const previous = await this.read(id);
    if (previous?.state === 'done') return { response: previous.response, replayed: true };
    if (previous?.state === 'done-unrecorded' && !rerunnable) {
      return {
        response: {
          type: 'response',
          id,
          ok: false,
          error: makeError(
            'DRIVER_ERROR',
            'this request already ran, but its answer was too large to keep for a replay; read the page to see its effect',
          ),
        },
        replayed: true,
      };
    }
    const resumed = previous?.state === 'running';
    await this.write(id, { state: 'running', at: this.options.now() });
    const response = await execute(resumed);
    const bytes = JSON.stringify(response).length;
    const record: Entry =
      bytes <= this.options.maxEntryBytes
        ? { state: 'done', at: this.options.now(), response }
        : { state: 'done-unrecorded', at: this.options.now() };
    await this.write(id, record, bytes);
    return { response, replayed: false };
  }

  private async read(id: string): Promise<Entry | null> {
    try {
      const got = await this.area.get(entryKey(id));
      const value = got[entryKey(id)] as Entry | undefined;
      if (!value || this.options.now() - value.at > this.options.ttlMs) return null;
      return value;
    } catch (error) {
      this.onStorageError(error);
      return null;
    }
  }

  private write(id: string, record: Entry, bytes = 64): Promise<void> {
    const step = this.writes.then(async () => {
      try {
        const index = await this.loadIndex();
        const rows = index.filter((row) => row[0] !== id);
        rows.push([id, record.at, bytes]);
        const { keep, evict } = this.prune(rows);
        this.index = keep;
        await this.area.set({ [entryKey(id)]: record, [INDEX_KEY]: keep });
        if (evict.length > 0) await this.area.remove(evict.map((row) => entryKey(row[0])));
      } catch (error) {
        this.onStorageError(error);
      }
    });
    this.writes = step;
    return step;
  }

  private prune(rows: IndexRow[]): { keep: IndexRow[]; evict: IndexRow[] } {
    const now = this.options.now();
    const fresh = rows.filter((row) => now - row[1] <= this.options.ttlMs);
    const evict = rows.filter((row) => now - row[1] > this.options.ttlMs);
    let total = fresh.reduce((sum, row) => sum + row[2], 0);
    // Oldest first; the newest row (just written) is always kept.
    while (
      fresh.length > 1 &&
      (fresh.length > this.options.maxEntries || total > this.options.maxTotalBytes)
    ) {
      const oldest = fresh.shift();
      if (!oldest) break;
      total -= oldest[2];
      evict.push(oldest);
    }
    return { keep: fresh, evict };
  }

  private async loadIndex(): Promise<IndexRow[]> {
    if (this.index) return this.index;
    const got = await this.area.get(INDEX_KEY);
    const raw = got[INDEX_KEY];
    this.index = Array.isArray(raw)
      ? raw.filter(
          (row): row is IndexRow =>
            Array.isArray(row) &&
            typeof row[0] === 'string' &&
            typeof row[1] === 'number' &&
            typeof row[2] === 'number',
        )
      : [];
    return this.index;
  }
}
