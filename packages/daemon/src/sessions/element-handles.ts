/**
 * Daemon-owned element handles (el1, ln1, …): short-lived aliases for read → act workflows.
 * A handle is scoped to {session, logical tab, page}; the page is identified by a navigation epoch the
 * daemon keeps per raw tab plus the URL seen when the handle was minted. Bounds live in memory only:
 * TTL 120 s, 200 handles per read, 400 per scope {session, tab, prefix}, 1000 in all (oldest scopes
 * evicted first). A fresh read on the same page keeps the handle of every node it sees again (the page
 * script gives the same node the same ref, so the same ref is the same node) and renews its TTL; new
 * nodes get new numbers; handles of nodes it does not show stay until the scope holds more than 400
 * (oldest dropped first) — a node that is gone is refused by the page as ELEMENT_HANDLE_STALE, never
 * retargeted. A read on another page (new epoch) replaces the scope. A driver disconnect forgets the epochs
 * of its tabs, so resolution fails closed (stale) until a navigation is observed again. Epochs come from
 * one counter for the daemon's life and never repeat: a page learned again after a disconnect — even
 * at the same URL — gets a new epoch, so a handle minted before the disconnect can never match it.
 */
import type {
  ElementHandle,
  ElementHandlePrefix,
  ElementTarget,
  ErrorCode,
  SessionId,
  TabHandle,
} from '@bproxy/protocol';
import { HANDLES_PER_READ } from '@bproxy/protocol';
import { SnapshotMemory } from './snapshot-memory';

export const HANDLE_TTL_MS = 120_000;
export const HANDLE_SCOPE_CAP = HANDLES_PER_READ;
export const HANDLE_GLOBAL_CAP = 1000;
/** Handles one scope {session, tab, prefix} keeps across reads of the same page. */
export const HANDLE_SCOPE_KEEP = 2 * HANDLES_PER_READ;

const handleKey = (session: string, handle: string) => `${session}:${handle}`;

interface HandleRecord {
  handle: ElementHandle;
  session: SessionId;
  tab: TabHandle;
  pageKey: string;
  epoch: number;
  url: string;
  target: ElementTarget;
  /** What the read called the element (for the browser's activity feed); never sent to a driver. */
  name?: string;
  expiresAt: number;
}

interface Batch {
  scope: string;
  session: SessionId;
  tab: TabHandle;
  pageKey: string;
  epoch: number;
  sourceAction: string;
  /** Oldest first: a handle a read shows again moves to the end. */
  handles: Set<ElementHandle>;
  /** The handle of each page ref in this scope: the same node keeps its handle. */
  byRef: Map<string, ElementHandle>;
}

export interface HandleEvents {
  mint(e: {
    session: string;
    tab: string;
    sourceAction: string;
    count: number;
    firstHandle?: string;
    lastHandle?: string;
  }): void;
  resolve(e: { handle: string; session: string; tab: string; outcome: string }): void;
  invalidate(e: { session?: string; tab?: string; cause: string; count: number }): void;
}

export type HandleResolution =
  { ok: true; target: ElementTarget } | { ok: false; code: ErrorCode; message: string };

export class ElementHandles {
  private readonly handles = new Map<string, HandleRecord>();
  /** Batches in mint order: the first is the oldest, evicted first at the global cap. */
  private readonly batches = new Map<string, Batch>();
  private readonly counters = new Map<string, number>();
  /** Page identity per raw tab: pageKey → {epoch, url}. */
  private readonly pages = new Map<string, { epoch: number; url: string }>();
  /** The last epoch handed out, to any tab. */
  private lastEpoch = 0;
  /** Each session's last snapshot per tab and scope, for `snapshot --diff`. */
  readonly snapshots = new SnapshotMemory();

  constructor(
    private readonly monotonic: () => number,
    private readonly events: HandleEvents,
  ) {}

  static pageKey(clientKey: string, rawTabId: number): string {
    return `${clientKey}#${rawTabId}`;
  }

  get size(): number {
    return this.handles.size;
  }

  /** A navigation (committed or history_state) was observed in a raw tab. */
  onNavigation(pageKey: string, url: string): void {
    this.pages.set(pageKey, { epoch: ++this.lastEpoch, url });
  }

  /**
   * The driver knows the page as `url` right now (a read answered): a page not known (never seen, or
   * forgotten at a disconnect) or now at another URL starts a new epoch; handles minted before stay stale.
   */
  observePage(pageKey: string, url: string): void {
    const page = this.pages.get(pageKey);
    if (!page || page.url !== url) this.pages.set(pageKey, { epoch: ++this.lastEpoch, url });
  }

  /** The page a raw tab shows now, as far as the daemon knows (undefined: not known). */
  pageOf(pageKey: string): { epoch: number; url: string } | undefined {
    return this.pages.get(pageKey);
  }

  /** Forget epochs of every tab of a driver (its connection dropped). */
  forgetPages(clientKey: string): void {
    for (const key of [...this.pages.keys()]) if (key.startsWith(`${clientKey}#`)) this.pages.delete(key);
  }

  mint(
    scope: { session: SessionId; tab: TabHandle; pageKey: string },
    sourceAction: string,
    prefix: ElementHandlePrefix,
    targets: ElementTarget[],
    names: readonly (string | undefined)[] = [],
  ): ElementHandle[] {
    const scopeKey = `${scope.session}/${scope.tab}/${prefix}`;
    const page = this.pages.get(scope.pageKey);
    let batch = this.batches.get(scopeKey);
    if (batch && (!page || batch.pageKey !== scope.pageKey || batch.epoch !== page.epoch)) {
      this.dropBatch(scopeKey, 'replaced');
      batch = undefined;
    }
    const minted: ElementHandle[] = [];
    if (!page) return minted;
    if (batch) this.batches.delete(scopeKey); // re-inserted below: the most recent scope
    batch ??= {
      scope: scopeKey,
      session: scope.session,
      tab: scope.tab,
      pageKey: scope.pageKey,
      epoch: page.epoch,
      sourceAction,
      handles: new Set(),
      byRef: new Map(),
    };
    batch.sourceAction = sourceAction;
    const counterKey = `${scope.session}/${prefix}`;
    let counter = this.counters.get(counterKey) ?? 0;
    const expiresAt = this.monotonic() + HANDLE_TTL_MS;
    for (const [i, target] of targets.slice(0, HANDLE_SCOPE_CAP).entries()) {
      const known = target.ref === undefined ? undefined : batch.byRef.get(target.ref);
      const live = known === undefined ? undefined : this.handles.get(handleKey(scope.session, known));
      const handle = live?.handle ?? (`${prefix}${++counter}` as ElementHandle);
      const name = names[i];
      this.handles.set(handleKey(scope.session, handle), {
        handle,
        session: scope.session,
        tab: scope.tab,
        pageKey: scope.pageKey,
        epoch: page.epoch,
        url: page.url,
        target,
        ...(name === undefined || name === '' ? {} : { name: name.slice(0, 200) }),
        expiresAt,
      });
      if (known !== undefined && known !== handle) batch.handles.delete(known);
      batch.handles.delete(handle);
      batch.handles.add(handle);
      if (target.ref !== undefined) batch.byRef.set(target.ref, handle);
      minted.push(handle);
    }
    this.counters.set(counterKey, counter);
    this.batches.set(scopeKey, batch);
    this.trimScope(batch);
    this.enforceGlobalCap();
    this.events.mint({
      session: scope.session,
      tab: scope.tab,
      sourceAction,
      count: minted.length,
      firstHandle: minted[0],
      lastHandle: minted[minted.length - 1],
    });
    return minted;
  }

  /** Drops the oldest handles of a scope past HANDLE_SCOPE_KEEP (those of the newest read are last). */
  private trimScope(batch: Batch): void {
    let dropped = 0;
    for (const handle of batch.handles) {
      if (batch.handles.size <= HANDLE_SCOPE_KEEP) break;
      this.forgetHandle(batch, handle);
      dropped++;
    }
    if (dropped > 0)
      this.events.invalidate({ session: batch.session, tab: batch.tab, cause: 'replaced', count: dropped });
  }

  private forgetHandle(batch: Batch, handle: ElementHandle): void {
    const key = handleKey(batch.session, handle);
    const ref = this.handles.get(key)?.target.ref;
    if (ref !== undefined && batch.byRef.get(ref) === handle) batch.byRef.delete(ref);
    batch.handles.delete(handle);
    this.handles.delete(key);
  }

  /** What the read that minted a live handle called its element, if it said. */
  nameOf(session: SessionId, handle: string): string | undefined {
    return this.handles.get(handleKey(session, handle))?.name;
  }

  /** Resolves a handle for an action on `tab` (the tab the action will run in). */
  resolve(session: SessionId, tab: TabHandle, handle: ElementHandle): HandleResolution {
    const record = this.handles.get(handleKey(session, handle));
    const outcome = (o: string) => this.events.resolve({ handle, session, tab, outcome: o });
    if (!record || record.expiresAt <= this.monotonic()) {
      if (record) this.removeHandle(record);
      outcome('not_found');
      return {
        ok: false,
        code: 'ELEMENT_HANDLE_NOT_FOUND',
        message: `${handle} is unknown, expired or was dropped for newer reads`,
      };
    }
    if (record.tab !== tab) {
      outcome('scope_mismatch');
      return {
        ok: false,
        code: 'ELEMENT_HANDLE_SCOPE_MISMATCH',
        message: `${handle} belongs to tab ${record.tab}, not ${tab}`,
      };
    }
    const page = this.pages.get(record.pageKey);
    if (!page || page.epoch !== record.epoch || page.url !== record.url) {
      outcome('stale');
      return {
        ok: false,
        code: 'ELEMENT_HANDLE_STALE',
        message: `${handle} was read on a page that is no longer shown in ${tab}`,
      };
    }
    outcome('ok');
    return { ok: true, target: record.target };
  }

  invalidateTab(session: SessionId, tab: TabHandle, cause: string): void {
    let count = 0;
    for (const [key, batch] of [...this.batches]) {
      if (batch.session === session && batch.tab === tab) count += this.dropBatch(key, null);
    }
    this.snapshots.forgetTab(session, tab);
    if (count > 0) this.events.invalidate({ session, tab, cause, count });
  }

  invalidateSession(session: SessionId, cause: string): void {
    let count = 0;
    for (const [key, batch] of [...this.batches])
      if (batch.session === session) count += this.dropBatch(key, null);
    for (const key of [...this.counters.keys()]) if (key.startsWith(`${session}/`)) this.counters.delete(key);
    this.snapshots.forgetSession(session);
    if (count > 0) this.events.invalidate({ session, cause, count });
  }

  forgetTabPage(pageKey: string): void {
    this.pages.delete(pageKey);
  }

  private dropBatch(scopeKey: string, cause: string | null): number {
    const batch = this.batches.get(scopeKey);
    if (!batch) return 0;
    this.batches.delete(scopeKey);
    for (const h of batch.handles) this.handles.delete(handleKey(batch.session, h));
    const count = batch.handles.size;
    if (cause && count > 0) this.events.invalidate({ session: batch.session, tab: batch.tab, cause, count });
    return count;
  }

  private removeHandle(record: HandleRecord): void {
    this.handles.delete(handleKey(record.session, record.handle));
  }

  private enforceGlobalCap(): void {
    while (this.handles.size > HANDLE_GLOBAL_CAP) {
      const oldest = this.batches.keys().next();
      if (oldest.done) return;
      this.dropBatch(oldest.value, 'evicted');
    }
  }
}
