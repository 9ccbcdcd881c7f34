/**
 * Hand-off for the tab in front: the session that holds it (if any) with its state and, when paused,
 * why (CAPTCHA, login wall, or your own take-over); Resume, Take over, Close session and the pacing
 * menu act through the daemon on the user's behalf; a tab no session holds can be shared, which gives its session id and a
 * ready-to-copy line for a CLI agent.
 */
import { TAKE_OVER_REASON, type BrowserSession } from '@bproxy/protocol';
import { cliLine } from '../common/user-commands';
import { byId } from './dom';
import type { PanelLink } from './link';

type Tone = 'ok' | 'bad';
type Holder = BrowserSession | undefined;

/**
 * A line said about one tab, shown while what it says holds (`holds`): "Session closed." while no
 * session holds the tab, "Resumed" while the session runs. One the state has not caught up with yet
 * (the answer came before the daemon's news) waits for it; after, any other state clears it.
 */
interface Said {
  text: string;
  tone: Tone;
  holds: (holder: Holder) => boolean;
  /** The state it speaks of has not been seen yet. */
  pending: boolean;
}

/** What a tab's hand-off state is, for lines that hold only while it stays the same. */
const stateOf = (holder: Holder): string =>
  holder === undefined
    ? 'free'
    : `${holder.info.session}|${holder.info.state}|${String(holder.info.paused)}|${holder.info.pacing}`;

export class HandoffView {
  private readonly free = byId('tab-free');
  private readonly held = byId('tab-session');
  private readonly sessionId = byId('session-id');
  private readonly sessionLabel = byId('session-label');
  private readonly state = byId('session-state');
  private readonly pacing = byId<HTMLSelectElement>('session-pacing');
  private readonly reason = byId('pause-reason');
  private readonly resume = byId<HTMLButtonElement>('resume');
  private readonly takeOver = byId<HTMLButtonElement>('take-over');
  private readonly close = byId<HTMLButtonElement>('close-session');
  private readonly share = byId<HTMLButtonElement>('share');
  private readonly cli = byId('cli-command');
  private readonly copy = byId<HTMLButtonElement>('copy-cli');
  private readonly message = byId('handoff-message');
  private readonly freeText = byId('tab-free-text');
  private sessions: BrowserSession[] = [];
  /** Tabs the user shared whose session the daemon lost. */
  private lost = new Set<number>();
  /** The line said about each tab (never carried to another tab). */
  private readonly said = new Map<number, Said>();
  private daemon: string | null = null;
  /** The CLI launcher's absolute path, when the native host said it. */
  private cliPath: string | undefined;
  private readonly closeConfirm = byId('close-confirm');
  private readonly closeYes = byId<HTMLButtonElement>('close-confirm-yes');
  private readonly closeNo = byId<HTMLButtonElement>('close-confirm-no');

  constructor(
    private readonly link: PanelLink,
    private readonly currentTab: () => number | null,
    /** The panel's tab once it is known (null: it cannot be read); the panel learns it as it opens. */
    private readonly tabKnown: () => Promise<number | null> = async () => currentTab(),
  ) {
    link.on((message) => {
      if (message.type === 'status') {
        // The daemon came or went: what was said under the old state (a refusal, a remedy) is stale.
        if (this.daemon !== null && this.daemon !== message.daemon) {
          for (const [tab, said] of [...this.said]) if (said.tone === 'bad') this.said.delete(tab);
          this.render();
        }
        this.daemon = message.daemon;
        this.cliPath = message.cli;
        return;
      }
      if (message.type !== 'sessions') return;
      this.sessions = message.sessions;
      this.lost = new Set(message.lost ?? []);
      this.render();
    });
    this.resume.addEventListener('click', () => void this.act('resume'));
    this.takeOver.addEventListener('click', () => void this.act('take_over'));
    // Closing ends the agents' work in the tab: asked once more, away from Take over.
    this.close.addEventListener('click', () => {
      this.closeConfirm.hidden = false;
      this.close.hidden = true;
    });
    this.closeNo.addEventListener('click', () => this.confirmClosed());
    this.closeYes.addEventListener('click', () => {
      this.confirmClosed();
      void this.act('close_session');
    });
    this.share.addEventListener('click', () => void this.shareTab());
    this.pacing.addEventListener('change', () => void this.setPacing());
    this.copy.addEventListener('click', () => {
      void navigator.clipboard.writeText(this.cli.textContent ?? '').then(
        () => this.say(this.currentTab(), 'Copied.', 'ok'),
        () => this.say(this.currentTab(), 'Could not copy: select the line and copy it by hand.', 'bad'),
      );
    });
  }

  private confirmClosed(): void {
    this.closeConfirm.hidden = true;
    this.close.hidden = false;
  }

  /** The session holding the tab in front, if any. */
  current(): BrowserSession | undefined {
    const tab = this.currentTab();
    return tab === null ? undefined : this.sessionOf(tab);
  }

  /** The session holding `tab`, if any. */
  sessionOf(tab: number): BrowserSession | undefined {
    return this.sessions.find((s) => s.tabs.some((t) => t.tabId === tab));
  }

  render(): void {
    this.renderSaid();
    const session = this.current();
    if (session === undefined) this.confirmClosed();
    this.free.hidden = session !== undefined;
    this.held.hidden = session === undefined;
    if (!session) {
      const tab = this.currentTab();
      const lost = tab !== null && this.lost.has(tab);
      this.freeText.textContent = lost
        ? 'Session lost: bproxy restarted and this tab’s session ended with it. Share again to hand the tab to an agent.'
        : 'No agent is working in this tab.';
      this.freeText.className = lost ? 'lost' : 'muted';
      this.share.textContent = lost ? 'Share again' : 'Share this tab with agents';
      return;
    }
    const { info } = session;
    this.sessionId.textContent = info.session;
    // Words for people: "shared by you", "active" (the daemon's "bound"), "no tab yet" ("created").
    this.sessionLabel.textContent =
      info.label === 'shared by the user' ? 'shared by you' : (info.label ?? '');
    this.state.textContent = info.paused ? 'paused' : info.state === 'bound' ? 'active' : 'no tab yet';
    this.state.className = `badge${info.paused ? ' paused' : ''}`;
    this.reason.hidden = !info.paused;
    // The take-over's reason is written for agents; a person reads what it means for them.
    this.reason.textContent = !info.paused
      ? ''
      : info.pauseReason === TAKE_OVER_REASON
        ? 'You took over this tab: agents wait until you press Resume.'
        : `Waiting for you: ${info.pauseReason ?? 'the page needs a person'}`;
    this.pacing.value = info.pacing;
    this.resume.hidden = !info.paused;
    this.takeOver.hidden = info.paused;
    this.cli.textContent = cliLine(info.session, this.cliPath);
  }

  private async act(kind: 'resume' | 'take_over' | 'close_session'): Promise<void> {
    const tab = this.currentTab();
    const session = this.current();
    if (!session) return;
    const id = session.info.session;
    const answer = await this.link.user({ kind, session: id });
    if (!answer.ok) this.say(tab, answer.reason, 'bad');
    else if (kind === 'resume')
      this.say(tab, 'Resumed: agents may go on.', 'ok', (h) => h?.info.session === id && !h.info.paused);
    else if (kind === 'take_over')
      this.say(tab, 'Yours now: agents wait until you press Resume.', 'ok', (h) => h?.info.paused === true);
    else this.say(tab, 'Session closed.', 'ok', (h) => h === undefined);
  }

  /** The user paces the session; on a tab they shared, agents cannot change it back. */
  private async setPacing(): Promise<void> {
    const tab = this.currentTab();
    const session = this.current();
    const pacing = this.pacing.value;
    if (!session || (pacing !== 'human' && pacing !== 'fast')) return;
    const answer = await this.link.user({ kind: 'set_pacing', session: session.info.session, pacing });
    if (!answer.ok) this.say(tab, answer.reason, 'bad');
    else
      this.say(
        tab,
        pacing === 'fast' ? 'Agents act at full speed here.' : 'Agents act at a human pace here.',
        'ok',
        (h) => h?.info.pacing === pacing,
      );
  }

  private async shareTab(): Promise<void> {
    // A click as the panel opens can come before it knows its tab: that tab is shared once it is known.
    const tab = this.currentTab() ?? (await this.tabKnown());
    if (tab === null) return;
    const answer = await this.link.user({ kind: 'share_tab', tabId: tab });
    if (!answer.ok) this.say(tab, `Not shared: ${answer.reason}`, 'bad');
    else this.say(tab, 'Shared: agents can now work in this tab.', 'ok', (h) => h !== undefined);
  }

  /**
   * Says `text` about `tab` while `holds` does (by default: while the tab's state stays as it is now).
   */
  private say(tab: number | null, text: string, tone: Tone, holds?: (holder: Holder) => boolean): void {
    if (tab === null) return;
    const now = stateOf(this.sessionOf(tab));
    const check = holds ?? ((h: Holder) => stateOf(h) === now);
    this.said.set(tab, { text, tone, holds: check, pending: !check(this.sessionOf(tab)) });
    this.renderSaid();
  }

  /** The front tab's line, if it still holds; one that no longer does is forgotten. */
  private renderSaid(): void {
    const tab = this.currentTab();
    const said = tab === null ? undefined : this.said.get(tab);
    if (tab !== null && said !== undefined) {
      const holds = said.holds(this.sessionOf(tab));
      if (said.pending && holds) said.pending = false;
      else if (!said.pending && !holds) this.said.delete(tab);
    }
    const shown = tab === null ? undefined : this.said.get(tab);
    this.message.hidden = shown === undefined;
    this.message.textContent = shown?.text ?? '';
    this.message.className = `message ${shown?.tone ?? ''}`;
  }
}
