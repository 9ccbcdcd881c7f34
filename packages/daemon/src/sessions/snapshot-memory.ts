/**
 * Each session's last snapshot per tab and scope (the target, contains, offset and maxChars it was
 * asked with), for `snapshot --diff`: its lines with handles written in, the long text runs the page
 * sent, and the page (epoch) it was read on. Memory only, bounded: 64 scopes in all, the least recently
 * read dropped first; forgotten with the tab or the session. It also keeps the `maxChars` of each tab's
 * latest whole-page diff read, so that the diff an action answers with (`click --diff`) compares within
 * the scope the agent reads the page in.
 */
import type { SessionId, TabHandle } from '@bproxy/protocol';

export const SNAPSHOT_SCOPES_KEPT = 64;

export interface RememberedSnapshot {
  epoch: number;
  lines: string[];
  longText: string[];
}

export class SnapshotMemory {
  private readonly entries = new Map<string, RememberedSnapshot>();
  /** session/tab → the maxChars of its latest whole-page diff read (null: the default cap). */
  private readonly wholeCaps = new Map<string, number | null>();

  private static key(session: SessionId, tab: TabHandle, scope: string): string {
    return `${session}/${tab}/${scope}`;
  }

  get size(): number {
    return this.entries.size;
  }

  get(session: SessionId, tab: TabHandle, scope: string): RememberedSnapshot | undefined {
    return this.entries.get(SnapshotMemory.key(session, tab, scope));
  }

  set(session: SessionId, tab: TabHandle, scope: string, entry: RememberedSnapshot): void {
    const key = SnapshotMemory.key(session, tab, scope);
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > SNAPSHOT_SCOPES_KEPT) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }

  /** A whole-page diff read (no target, contains or offset) was answered with this maxChars. */
  setWholeCap(session: SessionId, tab: TabHandle, maxChars: number | null): void {
    this.wholeCaps.set(`${session}/${tab}/`, maxChars);
  }

  /** The maxChars of the tab's latest whole-page diff read; undefined before any (or null: the default). */
  wholeCap(session: SessionId, tab: TabHandle): number | null | undefined {
    return this.wholeCaps.get(`${session}/${tab}/`);
  }

  forgetTab(session: SessionId, tab: TabHandle): void {
    this.forget(`${session}/${tab}/`);
  }

  forgetSession(session: SessionId): void {
    this.forget(`${session}/`);
  }

  private forget(prefix: string): void {
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
    for (const key of [...this.wholeCaps.keys()]) if (key.startsWith(prefix)) this.wholeCaps.delete(key);
  }
}
