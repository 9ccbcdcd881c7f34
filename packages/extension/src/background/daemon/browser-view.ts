/**
 * What the user sees of agents in the browser itself, from what the daemon pushes: the sessions that
 * hold this browser's tabs (kept here for the side panel), each session's tabs gathered in a tab group
 * named after it and marked while it is paused, the toolbar badge (how many sessions, `!` when one
 * waits for the human; `?` and how many while actions wait for a person's decision — approvals —, then
 * back to the sessions' count), and activity entries and the approvals relayed to every open side panel. Best effort against
 * the browser: a tab that cannot be grouped (a pinned tab, another window) stays where it is.
 *
 * A group's title starts with GROUP_PREFIX, so that bproxy knows its own: Chrome saves tab groups, and
 * one alive when the browser quit comes back around a tab no session holds. Such a ghost — a group
 * titled as ours that no live session holds — is ungrouped after the first sessions the daemon pushes
 * (the worker started), whenever the daemon link is down (no session can be known live), and when
 * Chrome creates or retitles a group (a saved group reopened).
 */
import type { ActivityEntry, BrowserSession, PendingApproval } from '@bproxy/protocol';
import type { ChromeApi } from '../../chrome-api';
import type { DaemonPush } from './connection';
import { messageOf } from '../driver/errors';
import type { WorkerLog } from '../log';

export interface BrowserViewListener {
  /** The sessions holding this browser's tabs, and the tabs the user shared whose session was lost. */
  sessions(sessions: BrowserSession[], lost: number[]): void;
  activity(entry: ActivityEntry): void;
  /** What waits for a person's decision (any session of the daemon's, whichever driver). */
  approvals(pending: PendingApproval[]): void;
}

/** How every bproxy group's title starts. */
export const GROUP_PREFIX = 'bproxy · ';
/** The paused mark, in words: a symbol would need an emoji font the user may not have. */
export const PAUSED_MARK = 'paused · ';

/** A group's title: ours by its prefix, then paused or not, then what tells sessions apart. */
export function groupTitle(name: string, paused: boolean): string {
  return `${GROUP_PREFIX}${paused ? PAUSED_MARK : ''}${name}`;
}

export const isOurGroup = (title: string | undefined): boolean => title?.startsWith(GROUP_PREFIX) === true;

export class BrowserView {
  private current: BrowserSession[] = [];
  private asks: PendingApproval[] = [];
  private readonly groups = new Map<string, number>();
  /** The tabs each session had at the last sync, to let go of them when it ends. */
  private readonly grouped = new Map<string, number[]>();
  private readonly listeners = new Set<BrowserViewListener>();
  private syncing: Promise<void> = Promise.resolve();
  /** No sessions pushed since the worker started: the first push also sweeps the ghosts. */
  private swept = false;
  /** Tabs the user shared, as the sessions pushed last said. */
  private readonly shared = new Set<number>();
  /** Tabs the user shared that no session holds since the daemon came back without them. */
  private readonly lostTabs = new Set<number>();
  /** The link was down since the last sessions: the next push says what the daemon still holds. */
  private reconnecting = false;
  /** Told, after the daemon came back, of the tabs bproxy drives that no session holds any more. */
  onOrphans: (held: ReadonlySet<number>) => void = () => undefined;
  /**
   * Told, after the daemon came back, of the tabs the user had shared that no session holds: the
   * worker shares them again. A tab it cannot share again stays lost ("Session lost — Share again").
   */
  onLost: (tabIds: readonly number[]) => void = () => undefined;

  constructor(
    private readonly chrome: Pick<ChromeApi, 'tabs' | 'tabGroups' | 'action'>,
    private readonly log: WorkerLog,
  ) {}

  /** Wires Chrome's group events; call in the worker's first turn. */
  install(): void {
    const check = (group: { id: number; title?: string }): void => {
      if (!isOurGroup(group.title) || this.isLive(group.id)) return;
      this.syncing = this.syncing.then(() => this.sweep());
    };
    this.chrome.tabGroups.onCreated.addListener(check);
    this.chrome.tabGroups.onUpdated.addListener(check);
  }

  /**
   * The daemon link is down: no session can be known live, so bproxy's groups go (they come back with
   * the sessions the daemon pushes once the link is up again).
   */
  linkDown(): void {
    this.reconnecting = true;
    // Nobody can decide through a link that is down: the daemon sends what waits when it is back.
    if (this.asks.length > 0) this.onPush({ type: 'approvals', pending: [] });
    this.syncing = this.syncing.then(async () => {
      this.groups.clear();
      this.grouped.clear();
      await this.sweep();
    });
  }

  private isLive(groupId: number): boolean {
    return [...this.groups.values()].includes(groupId);
  }

  /** Ungroups every group titled as ours that no live session holds. */
  private async sweep(): Promise<void> {
    try {
      for (const group of await this.chrome.tabGroups.query({})) {
        if (!isOurGroup(group.title) || this.isLive(group.id)) continue;
        const tabIds = (await this.chrome.tabs.query({ groupId: group.id }))
          .map((t) => t.id)
          .filter((id): id is number => id !== undefined);
        if (tabIds.length > 0) await this.chrome.tabs.ungroup(tabIds);
        this.log.info('tab_group_ghost_removed', { groupId: group.id, tabs: tabIds.length });
      }
    } catch (error) {
      this.log.debug('tab_group_sweep_failed', { error: messageOf(error) });
    }
  }

  get sessions(): BrowserSession[] {
    return this.current;
  }

  get lost(): number[] {
    return [...this.lostTabs];
  }

  listen(listener: BrowserViewListener): () => void {
    this.listeners.add(listener);
    listener.sessions(this.current, this.lost);
    listener.approvals(this.asks);
    return () => this.listeners.delete(listener);
  }

  get approvals(): PendingApproval[] {
    return this.asks;
  }

  onPush(message: DaemonPush): void {
    if (message.type === 'approvals') {
      this.asks = message.pending;
      for (const listener of [...this.listeners]) listener.approvals(this.asks);
      this.syncing = this.syncing.then(() => this.badge());
      return;
    }
    if (message.type === 'activity') {
      for (const listener of [...this.listeners]) listener.activity(message.entry);
      return;
    }
    if (message.type !== 'sessions') return;
    this.current = message.sessions;
    const held = new Set(message.sessions.flatMap((s) => s.tabs.map((t) => t.tabId)));
    if (this.reconnecting) {
      // The first sessions since the link came back: a tab the user shared that no session holds now
      // lost its session (the daemon restarted), and what bproxy drives outside every session is let go.
      this.reconnecting = false;
      for (const tabId of this.shared) if (!held.has(tabId)) this.lostTabs.add(tabId);
      this.onOrphans(held);
      if (this.lostTabs.size > 0) this.onLost([...this.lostTabs]);
    }
    for (const tabId of held) this.lostTabs.delete(tabId);
    this.shared.clear();
    for (const s of message.sessions) for (const t of s.tabs) if (t.shared) this.shared.add(t.tabId);
    for (const tabId of this.lostTabs) if (!this.shared.has(tabId)) this.shared.add(tabId);
    for (const listener of [...this.listeners]) listener.sessions(this.current, this.lost);
    // One sync at a time, in order: groups created by one are reused by the next.
    this.syncing = this.syncing.then(() => this.sync(message.sessions));
  }

  private async sync(sessions: BrowserSession[]): Promise<void> {
    await this.badge();
    const live = new Set<string>(sessions.map((s) => s.info.session));
    for (const [id, tabIds] of [...this.grouped]) {
      if (live.has(id)) continue;
      // The session ended: tabs left open (a released tab of the user's) leave its group.
      this.groups.delete(id);
      this.grouped.delete(id);
      await this.chrome.tabs
        .ungroup(tabIds)
        .catch((error: unknown) =>
          this.log.debug('tab_ungroup_failed', { session: id, error: messageOf(error) }),
        );
    }
    for (const session of sessions) await this.group(session);
    if (!this.swept) {
      this.swept = true;
      await this.sweep();
    }
  }

  /** The badge for the sessions pushed last, unless a decision waits: that comes first. */
  private async badge(): Promise<void> {
    const sessions = this.current;
    const asks = this.asks.length;
    const waiting = sessions.filter((s) => s.info.paused).length;
    const text =
      asks > 0 ? `${asks}?` : sessions.length === 0 ? '' : `${sessions.length}${waiting > 0 ? '!' : ''}`;
    const color = asks > 0 ? '#cf222e' : waiting > 0 ? '#bc4c00' : '#0969da';
    const title =
      asks > 0
        ? `bproxy: ${asks === 1 ? 'an action waits' : `${asks} actions wait`} for your decision in the side panel`
        : sessions.length === 0
          ? 'bproxy'
          : `bproxy: ${sessions.length} session${sessions.length > 1 ? 's' : ''}${
              waiting > 0 ? `, ${waiting} waiting for you` : ''
            }`;
    try {
      await this.chrome.action.setBadgeText({ text });
      await this.chrome.action.setBadgeBackgroundColor({ color });
      await this.chrome.action.setTitle({ title });
    } catch (error) {
      this.log.debug('badge_failed', { error: messageOf(error) });
    }
  }

  private async group(session: BrowserSession): Promise<void> {
    const { info } = session;
    const tabIds = session.tabs.map((t) => t.tabId);
    if (tabIds.length === 0) return;
    const title = groupTitle(await this.nameOf(session), info.paused);
    this.grouped.set(info.session, tabIds);
    const isNew = !this.groups.has(info.session);
    try {
      const groupId = await this.joinGroup(info.session, tabIds);
      this.groups.set(info.session, groupId);
      await this.chrome.tabGroups.update(groupId, { title, color: info.paused ? 'orange' : 'blue' });
      if (isNew && info.sharedByUser !== true) await this.fold(groupId, tabIds);
    } catch (error) {
      // The group may have been closed by the user: start a new one next time.
      this.groups.delete(info.session);
      this.log.debug('tab_group_failed', { session: info.session, error: messageOf(error) });
    }
  }

  /**
   * What tells a session's group apart from the others: an agent's label or its session id; for a tab
   * the user shared (whose id is a capability, never shown in the tab strip, and whose label says only
   * "shared by the user"), the site of its first tab.
   */
  private async nameOf(session: BrowserSession): Promise<string> {
    const { info } = session;
    if (info.sharedByUser !== true) return info.label ?? info.session;
    const first = session.tabs[0];
    const url =
      first === undefined
        ? undefined
        : await this.chrome.tabs.get(first.tabId).then(
            (tab) => tab.url ?? tab.pendingUrl,
            () => undefined,
          );
    let host = '';
    try {
      host = url === undefined ? '' : new URL(url).hostname;
    } catch {
      host = '';
    }
    return host === '' ? 'shared tab' : `shared: ${host}`;
  }

  /**
   * All the tabs at once; when Chrome refuses that — one of them cannot be grouped, such as a popup
   * window a page opened (only tabs of normal windows can) — each tab on its own, so the others still are.
   */
  /**
   * An agent's new group stays folded, out of the user's way, until the user opens it; never one
   * holding the tab the user looks at (folding it would switch the user to another tab).
   */
  private async fold(groupId: number, tabIds: number[]): Promise<void> {
    try {
      for (const tabId of tabIds) if ((await this.chrome.tabs.get(tabId)).active) return;
      await this.chrome.tabGroups.update(groupId, { collapsed: true });
    } catch (error) {
      this.log.debug('tab_group_fold_failed', { groupId, error: messageOf(error) });
    }
  }

  private async joinGroup(session: string, tabIds: number[]): Promise<number> {
    let groupId = this.groups.get(session);
    try {
      return await this.chrome.tabs.group(groupId === undefined ? { tabIds } : { tabIds, groupId });
    } catch (error) {
      if (tabIds.length === 1) throw error;
    }
    let lastError: unknown;
    for (const tabId of tabIds) {
      try {
        groupId = await this.chrome.tabs.group(
          groupId === undefined ? { tabIds: [tabId] } : { tabIds: [tabId], groupId },
        );
      } catch (error) {
        lastError = error;
      }
    }
    if (groupId === undefined) throw lastError;
    return groupId;
  }
}
