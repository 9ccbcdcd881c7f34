/**
 * What each connected extension is told unasked: the sessions that hold its tabs (state, pause
 * reason, which tabs — the side panel's hand-off view, the tab groups, the badge), sent after its
 * welcome and whenever they change, and each activity entry about its tabs as it is recorded. Changes
 * are coalesced to one snapshot per turn of the event loop and sent only when different from the last.
 * Every extension also hears what waits for a person's decision (approvals), whichever driver's session
 * asked: its side panel is where a person decides, its badge says a decision waits.
 */
import type { BrowserSession, DaemonMessage, PendingApproval } from '@bproxy/protocol';
import type { ActivityLog } from '../logs/activity';
import type { ClientRegistry } from './clients';
import type { SessionRegistry } from '../sessions/sessions';

export class BrowserState {
  private scheduled = false;
  private readonly lastSent = new Map<string, string>();
  private readonly lastApprovals = new Map<string, string>();
  private approvals: () => PendingApproval[] = () => [];

  constructor(
    private readonly sessions: SessionRegistry,
    private readonly clients: ClientRegistry,
    activity: ActivityLog,
  ) {
    activity.onEntry((entry, keys) => {
      for (const key of keys) this.send(key, { type: 'activity', entry });
    });
  }

  /** Something about sessions or tabs changed: send fresh snapshots (once, later in this turn). */
  changed(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  /** What waits for a person's decision: read at each flush, pushed when it changes (`changed()`). */
  watchApprovals(source: { pending(): PendingApproval[]; onChange(listener: () => void): unknown }): void {
    // Allowed ones wait for the agent's retry, not for a person: the panel shows those still to decide.
    this.approvals = () => source.pending().filter((a) => a.state === 'pending');
    source.onChange(() => this.changed());
  }

  /** A client (re)connected: it gets the current snapshot whatever it was sent before. */
  welcomed(clientKey: string): void {
    this.lastSent.delete(clientKey);
    this.lastApprovals.delete(clientKey);
    this.changed();
  }

  /** The sessions holding tabs of one browser client. */
  snapshot(clientKey: string): BrowserSession[] {
    const out: BrowserSession[] = [];
    for (const session of this.sessions.all()) {
      const tabs = [...session.tabs.values()].filter((t) => t.clientKey === clientKey);
      if (tabs.length === 0) continue;
      out.push({
        info: this.sessions.info(session),
        tabs: tabs.map((t) => ({ tab: t.handle, tabId: t.rawTabId, shared: t.adopted === true })),
      });
    }
    return out;
  }

  private flush(): void {
    const pending = this.approvals();
    const approvals = JSON.stringify(pending);
    for (const client of this.clients.all()) {
      if (client.kind !== 'extension' || client.transport === null) continue;
      if (this.lastApprovals.get(client.key) !== approvals) {
        this.lastApprovals.set(client.key, approvals);
        client.transport.send({ type: 'approvals', pending });
      }
      const sessions = this.snapshot(client.key);
      const json = JSON.stringify(sessions);
      if (this.lastSent.get(client.key) === json) continue;
      this.lastSent.set(client.key, json);
      client.transport.send({ type: 'sessions', sessions });
    }
  }

  private send(clientKey: string, message: DaemonMessage): void {
    const client = this.clients.get(clientKey);
    if (client?.kind === 'extension') client.transport?.send(message);
  }
}
