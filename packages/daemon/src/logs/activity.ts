/**
 * The browser's view of agents' work: a bounded ring of activity entries (actions, pauses, resumes,
 * closes), each tagged with the browser clients whose tabs it concerns, pushed to those clients as it
 * happens and replayed to a side panel that (re)opens — with a gap flag when the ring dropped entries it
 * had not seen. It holds no page content and no typed values: an action is its name, its target's
 * handle and name, and its outcome's code and first line.
 */
import { ACTIVITY_RING_SIZE, type ActivityEntry } from '@bproxy/protocol';

type Draft = Omit<ActivityEntry, 'seq' | 'at'>;

interface Stored {
  entry: ActivityEntry;
  clients: readonly string[];
}

export class ActivityLog {
  private readonly ring: Stored[] = [];
  private seq = 0;
  private readonly listeners = new Set<(entry: ActivityEntry, clients: readonly string[]) => void>();

  constructor(
    private readonly now: () => number,
    private readonly capacity = ACTIVITY_RING_SIZE,
  ) {}

  /** The last sequence number given out (0 before the first entry). */
  get latest(): number {
    return this.seq;
  }

  onEntry(listener: (entry: ActivityEntry, clients: readonly string[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Records an entry concerning the tabs of `clients`; nothing is kept for an entry no browser shows. */
  record(draft: Draft, clients: readonly string[]): void {
    if (clients.length === 0) return;
    const entry: ActivityEntry = { ...draft, seq: ++this.seq, at: this.now() };
    this.ring.push({ entry, clients });
    if (this.ring.length > this.capacity) this.ring.splice(0, this.ring.length - this.capacity);
    for (const listener of [...this.listeners]) listener(entry, clients);
  }

  /**
   * The entries after `after` that concern `client`, and whether the ring dropped some of those
   * before they could be read (the oldest kept entry is newer than the one after `after`).
   */
  since(after: number, client: string): { entries: ActivityEntry[]; gap: boolean } {
    const oldest = this.ring[0]?.entry.seq ?? this.seq + 1;
    const gap = after < this.seq && oldest > after + 1;
    const entries = this.ring
      .filter((s) => s.entry.seq > after && s.clients.includes(client))
      .map((s) => s.entry);
    return { entries, gap };
  }
}
