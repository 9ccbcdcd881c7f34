/**
 * The session registry: the only place session state lives (created → bound ⇄ paused, closed from
 * any state), each session's tabs under logical handles t1, t2, … and the raw browser tab behind each.
 * Raw tab ids stay in here; everything handed out is built by `info()` / `tabInfo()`.
 */
import type {
  HumanDetection,
  HumanWaiver,
  PacingMode,
  SessionId,
  SessionInfo,
  TabHandle,
  TabInfo,
} from '@bproxy/protocol';
import { SessionIdentifiers, tabHandle } from './session-identifiers';

export interface TabRecord {
  handle: TabHandle;
  session: SessionId;
  /** The browser client (driver instance) that owns the raw tab. */
  clientKey: string;
  rawTabId: number;
  url: string;
  title: string;
  pinned: boolean;
  /** The user put this already-open tab into the session: closing the session leaves it open. */
  adopted?: true;
  /** The tab of this session whose page opened this one (a target=_blank link, window.open). */
  openedBy?: TabHandle;
  /** What paused the session on this tab's page, when the driver said (kind, document, URL). */
  humanPause?: HumanDetection;
  /** The human checks a person resumed for on this tab's page; forwarded with every request. */
  humanWaiver?: HumanWaiver;
}

export interface SessionRecord {
  id: SessionId;
  label?: string;
  pacing: PacingMode;
  paused: boolean;
  pauseReason?: string;
  /**
   * The user took the session over in the browser: only their Resume (a user request on the
   * extension's connection) ends the pause; agents can neither resume, unbind nor close it meanwhile.
   */
  heldByUser?: true;
  /**
   * The user shared this tab from the browser for one agent (Share this tab, the Chat, the Terminal):
   * its unguessable id is that agent's capability, so the session is never listed to others, and its
   * pacing is the user's — agents cannot change it.
   */
  sharedByUser?: true;
  /** The browser the session's tabs open in when tab.open names none. */
  browser?: string;
  bound: TabHandle | null;
  tabs: Map<TabHandle, TabRecord>;
  nextTabOrdinal: number;
  createdAt: number;
  tmpDir: string;
  /** Monotonic time of the last paced action, the pacing engine's reference point. */
  lastPacedAt: number | null;
  /** Why the bound tab went away ("t1 was closed in the browser"), until another tab is bound. */
  lostBound?: string;
  /** What the next answer of the session tells the agent (session-notes.ts). */
  notes: SessionNote[];
}

/**
 * Something the agent would not see by itself, said in the session's next answer: the bound tab went
 * away and the session went back to `about`, the tab that opened it; or `about` was opened by a page
 * and no answer named it yet. Dropped when `about` itself goes.
 */
export type SessionNote =
  | { readonly kind: 'fell_back'; readonly about: TabHandle; readonly text: string }
  | { readonly kind: 'opened'; readonly about: TabHandle }
  /** The console errors and failed requests an action in `about` caused (observe/action-news.ts). */
  | { readonly kind: 'news'; readonly about: TabHandle; readonly text: string };

export type TabLookup =
  | { ok: true; tab: TabRecord }
  | { ok: false; code: 'TAB_HANDLE_NOT_FOUND' | 'TAB_NOT_IN_SESSION' | 'TAB_NOT_FOUND' };

/** Shared by the user for one agent, or held by the user: listed to nobody who does not name it. */
export function isPrivate(session: SessionRecord): boolean {
  return session.sharedByUser === true || session.heldByUser === true;
}

const rawKey = (clientKey: string, rawTabId: number) => `${clientKey}#${rawTabId}`;

export class SessionRegistry {
  private readonly sessions = new Map<SessionId, SessionRecord>();
  private readonly byRawTab = new Map<string, TabRecord>();
  private readonly ids = new SessionIdentifiers();
  /** Told which browser gained or lost a tab (the idle countdown of browsers the daemon opened). */
  onTabsChanged: (clientKey: string) => void = () => {};

  constructor(private readonly defaultPacing: PacingMode) {}

  create(opts: {
    label?: string;
    pacing?: PacingMode;
    browser?: string;
    sharedByUser?: boolean;
    now: number;
    tmpDirFor: (id: SessionId) => string;
  }): SessionRecord {
    const id = this.ids.next(opts.sharedByUser === true ? 'shared' : 'agent');
    const record: SessionRecord = {
      id,
      pacing: opts.pacing ?? this.defaultPacing,
      paused: false,
      bound: null,
      tabs: new Map(),
      nextTabOrdinal: 1,
      notes: [],
      createdAt: opts.now,
      tmpDir: opts.tmpDirFor(id),
      lastPacedAt: null,
    };
    if (opts.label !== undefined) record.label = opts.label;
    if (opts.browser !== undefined) record.browser = opts.browser;
    if (opts.sharedByUser === true) record.sharedByUser = true;
    this.sessions.set(id, record);
    return record;
  }

  get(id: SessionId): SessionRecord | undefined {
    return this.sessions.get(id);
  }

  all(): SessionRecord[] {
    return [...this.sessions.values()];
  }

  /**
   * The sessions a caller may see: every agent's session, and the one it names (`-s ID`) — never a
   * tab the user shared with another agent, nor a session the user holds while they hold it.
   */
  visibleTo(caller: string | undefined): SessionRecord[] {
    return this.all().filter((s) => s.id === caller || !isPrivate(s));
  }

  get size(): number {
    return this.sessions.size;
  }

  addTab(
    session: SessionRecord,
    tab: {
      clientKey: string;
      rawTabId: number;
      url: string;
      title: string;
      pinned: boolean;
      adopted?: true;
      openedBy?: TabHandle;
    },
  ): TabRecord {
    const handle = tabHandle(session.nextTabOrdinal++);
    const record: TabRecord = { handle, session: session.id, ...tab };
    session.tabs.set(handle, record);
    this.byRawTab.set(rawKey(tab.clientKey, tab.rawTabId), record);
    this.onTabsChanged(tab.clientKey);
    return record;
  }

  /** Resolves a logical handle for a session, telling "nowhere" from "another session's". */
  lookupTab(session: SessionRecord, handle: TabHandle): TabLookup {
    const tab = session.tabs.get(handle);
    if (tab) return { ok: true, tab };
    for (const other of this.sessions.values()) {
      if (other.tabs.has(handle)) return { ok: false, code: 'TAB_NOT_IN_SESSION' };
    }
    return { ok: false, code: 'TAB_HANDLE_NOT_FOUND' };
  }

  boundTab(session: SessionRecord): TabRecord | undefined {
    return session.bound === null ? undefined : session.tabs.get(session.bound);
  }

  byRaw(clientKey: string, rawTabId: number): TabRecord | undefined {
    return this.byRawTab.get(rawKey(clientKey, rawTabId));
  }

  /**
   * A tab is gone (closed by us, by the user, by its own page, or with its browser). When it was bound,
   * the session goes back to the tab that opened it if that one is still there, and the next answer
   * says so; otherwise it is unbound, remembering `why` ("was closed in the browser") so the next
   * action can say what happened. What was still to be said about the tab is dropped.
   */
  removeTab(tab: TabRecord, why?: string): void {
    const session = this.sessions.get(tab.session);
    this.byRawTab.delete(rawKey(tab.clientKey, tab.rawTabId));
    this.onTabsChanged(tab.clientKey);
    if (!session) return;
    session.tabs.delete(tab.handle);
    session.notes = session.notes.filter((note) => note.about !== tab.handle);
    if (session.bound !== tab.handle) return;
    const opener = tab.openedBy === undefined ? undefined : session.tabs.get(tab.openedBy);
    if (opener !== undefined) {
      this.bind(session, opener.handle);
      session.notes.push({
        kind: 'fell_back',
        about: opener.handle,
        text: `${tab.handle} ${why ?? 'was closed'}; the session is back on ${opener.handle}, the tab that opened it`,
      });
      return;
    }
    session.bound = null;
    if (why !== undefined) session.lostBound = `${tab.handle} ${why}`;
  }

  bind(session: SessionRecord, handle: TabHandle): void {
    session.bound = handle;
    delete session.lostBound;
  }

  /** session.unbind: back to created, clearing a pause too (per the state diagram). */
  unbind(session: SessionRecord): void {
    session.bound = null;
    delete session.lostBound;
    session.paused = false;
    delete session.pauseReason;
  }

  /**
   * Paused for a human. `on`: the tab whose page the driver described (which check, which document, at
   * which URL); without it nothing will be waived on resume.
   */
  pause(session: SessionRecord, reason: string, on?: { tab: TabRecord; found: HumanDetection }): void {
    session.paused = true;
    session.pauseReason = reason;
    for (const tab of session.tabs.values()) delete tab.humanPause;
    if (on !== undefined) on.tab.humanPause = on.found;
  }

  /** The user takes the session over from the browser: paused for them until they resume it. */
  takeOver(session: SessionRecord, reason: string): void {
    this.pause(session, reason);
    session.heldByUser = true;
  }

  /**
   * A person says go on. The check that paused the session is waived for the page it fired on, for as
   * long as that document stays at that URL (the page script compares both), adding to what was already
   * waived there. A pause whose page the driver did not describe leaves nothing waived: it fails closed.
   */
  resume(session: SessionRecord): void {
    session.paused = false;
    delete session.pauseReason;
    delete session.heldByUser;
    for (const tab of session.tabs.values()) {
      const found = tab.humanPause;
      if (found === undefined) continue;
      delete tab.humanPause;
      const kept = tab.humanWaiver;
      const samePage = kept !== undefined && kept.document === found.document && kept.url === found.url;
      const kinds = samePage ? [...new Set([...kept.kinds, found.kind])] : [found.kind];
      tab.humanWaiver = { document: found.document, url: found.url, kinds };
    }
  }

  delete(session: SessionRecord): void {
    for (const tab of session.tabs.values()) this.byRawTab.delete(rawKey(tab.clientKey, tab.rawTabId));
    this.sessions.delete(session.id);
    for (const clientKey of new Set([...session.tabs.values()].map((t) => t.clientKey)))
      this.onTabsChanged(clientKey);
  }

  tabsOfClient(clientKey: string): TabRecord[] {
    return [...this.byRawTab.values()].filter((t) => t.clientKey === clientKey);
  }

  info(session: SessionRecord): SessionInfo {
    const info: SessionInfo = {
      session: session.id,
      state: session.paused ? 'paused' : session.bound !== null ? 'bound' : 'created',
      tab: session.bound,
      tabs: [...session.tabs.keys()],
      pacing: session.pacing,
      paused: session.paused,
      createdAt: session.createdAt,
    };
    if (session.label !== undefined) info.label = session.label;
    if (session.pauseReason !== undefined) info.pauseReason = session.pauseReason;
    if (session.browser !== undefined) info.browser = session.browser;
    if (session.sharedByUser === true) info.sharedByUser = true;
    return info;
  }

  tabInfo(tab: TabRecord, browserName: string): TabInfo {
    const session = this.sessions.get(tab.session);
    return {
      tab: tab.handle,
      session: tab.session,
      url: tab.url,
      title: tab.title,
      pinned: tab.pinned,
      bound: session?.bound === tab.handle,
      browser: browserName,
    };
  }
}
