/**
 * What the user sees of agents in the browser itself, from what the daemon pushes: the sessions that
 * hold this browser's tabs (kept here for the side panel), each session's tabs gathered in a tab group
 * named after it and marked while it is paused, the toolbar badge (how many sessions, `!` when one
 * waits for the human), and activity entries relayed to every open side panel. Best effort against
 * the browser: a tab that cannot be grouped (a pinned tab, another window) stays where it is.
 */
import type { ActivityEntry, BrowserSession } from '@bproxy/protocol';
import type { ChromeApi } from '../../chrome-api';
import type { DaemonPush } from './connection';
import { messageOf } from '../driver/errors';
import type { WorkerLog } from '../log';

export interface BrowserViewListener {
  sessions(sessions: BrowserSession[]): void;
  activity(entry: ActivityEntry): void;
}

export const PAUSED_MARK = '⏸';

export class BrowserView {
  private current: BrowserSession[] = [];
  private readonly groups = new Map<string, number>();
  /** The tabs each session had at the last sync, to let go of them when it ends. */
  private readonly grouped = new Map<string, number[]>();
  private readonly listeners = new Set<BrowserViewListener>();
  private syncing: Promise<void> = Promise.resolve();

  constructor(
    private readonly chrome: Pick<ChromeApi, 'tabs' | 'tabGroups' | 'action'>,
    private readonly log: WorkerLog,
  ) {}

  get sessions(): BrowserSession[] {
    return this.current;
  }

  listen(listener: BrowserViewListener): () => void {
    this.listeners.add(listener);
    listener.sessions(this.current);
    return () => this.listeners.delete(listener);
  }

  onPush(message: DaemonPush): void {
    if (message.type === 'activity') {
      for (const listener of [...this.listeners]) listener.activity(message.entry);
      return;
    }
    if (message.type !== 'sessions') return;
    this.current = message.sessions;
    for (const listener of [...this.listeners]) listener.sessions(this.current);
    // One sync at a time, in order: groups created by one are reused by the next.
    this.syncing = this.syncing.then(() => this.sync(message.sessions));
  }

  private async sync(sessions: BrowserSession[]): Promise<void> {
    await this.badge(sessions);
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
  }

  private async badge(sessions: BrowserSession[]): Promise<void> {
    const waiting = sessions.filter((s) => s.info.paused).length;
    const text = sessions.length === 0 ? '' : `${sessions.length}${waiting > 0 ? '!' : ''}`;
    try {
      await this.chrome.action.setBadgeText({ text });
      await this.chrome.action.setBadgeBackgroundColor({ color: waiting > 0 ? '#bc4c00' : '#0969da' });
      await this.chrome.action.setTitle({
        title:
          sessions.length === 0
            ? 'bproxy'
            : `bproxy: ${sessions.length} session${sessions.length > 1 ? 's' : ''}${
                waiting > 0 ? `, ${waiting} waiting for you` : ''
              }`,
      });
    } catch (error) {
      this.log.debug('badge_failed', { error: messageOf(error) });
    }
  }

  private async group(session: BrowserSession): Promise<void> {
    const { info } = session;
    const title = `${info.paused ? `${PAUSED_MARK} ` : ''}${info.label ?? info.session}`;
    const tabIds = session.tabs.map((t) => t.tabId);
    if (tabIds.length === 0) return;
    this.grouped.set(info.session, tabIds);
    try {
      const groupId = await this.joinGroup(info.session, tabIds);
      this.groups.set(info.session, groupId);
      await this.chrome.tabGroups.update(groupId, { title, color: info.paused ? 'orange' : 'blue' });
    } catch (error) {
      // The group may have been closed by the user: start a new one next time.
      this.groups.delete(info.session);
      this.log.debug('tab_group_failed', { session: info.session, error: messageOf(error) });
    }
  }

  /**
   * All the tabs at once; when Chrome refuses that — one of them cannot be grouped, such as a popup
   * window a page opened (only tabs of normal windows can) — each tab on its own, so the others still are.
   */
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
