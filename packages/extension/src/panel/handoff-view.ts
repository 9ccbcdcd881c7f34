/**
 * Hand-off for the tab in front: the session that holds it (if any) with its state and, when paused,
 * why (CAPTCHA, login wall, or your own take-over); Resume, Take over, Close session and the pacing
 * menu act through the daemon on the user's behalf; a tab no session holds can be shared, which gives its session id and a
 * ready-to-copy line for a CLI agent.
 */
import type { BrowserSession } from '@bproxy/protocol';
import { byId } from './dom';
import type { PanelLink } from './link';

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

  constructor(
    private readonly link: PanelLink,
    private readonly currentTab: () => number | null,
  ) {
    link.on((message) => {
      if (message.type !== 'sessions') return;
      this.sessions = message.sessions;
      this.lost = new Set(message.lost ?? []);
      this.render();
    });
    this.resume.addEventListener('click', () => void this.act('resume'));
    this.takeOver.addEventListener('click', () => void this.act('take_over'));
    this.close.addEventListener('click', () => void this.act('close_session'));
    this.share.addEventListener('click', () => void this.shareTab());
    this.pacing.addEventListener('change', () => void this.setPacing());
    this.copy.addEventListener('click', () => {
      void navigator.clipboard.writeText(this.cli.textContent ?? '').then(
        () => this.say('Copied.', 'ok'),
        () => this.say('Could not copy: select the line and copy it by hand.', 'bad'),
      );
    });
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
    const session = this.current();
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
    this.sessionLabel.textContent = info.label ?? '';
    this.state.textContent = info.paused ? 'paused' : info.state;
    this.state.className = `badge${info.paused ? ' paused' : ''}`;
    this.reason.hidden = !info.paused;
    this.reason.textContent = info.paused
      ? `Waiting for you: ${info.pauseReason ?? 'the page needs a person'}`
      : '';
    this.pacing.value = info.pacing;
    this.resume.hidden = !info.paused;
    this.takeOver.hidden = info.paused;
    this.cli.textContent = `bproxy -s ${info.session} snapshot`;
  }

  private async act(kind: 'resume' | 'take_over' | 'close_session'): Promise<void> {
    const session = this.current();
    if (!session) return;
    const answer = await this.link.user({ kind, session: session.info.session });
    if (!answer.ok) this.say(answer.reason, 'bad');
    else
      this.say(
        kind === 'resume'
          ? 'Resumed: agents may go on.'
          : kind === 'take_over'
            ? 'Yours now: agents wait until you press Resume.'
            : 'Session closed.',
        'ok',
      );
  }

  /** The user paces the session; on a tab they shared, agents cannot change it back. */
  private async setPacing(): Promise<void> {
    const session = this.current();
    const pacing = this.pacing.value;
    if (!session || (pacing !== 'human' && pacing !== 'fast')) return;
    const answer = await this.link.user({ kind: 'set_pacing', session: session.info.session, pacing });
    if (!answer.ok) this.say(answer.reason, 'bad');
    else
      this.say(
        pacing === 'fast' ? 'Agents act at full speed here.' : 'Agents act at a human pace here.',
        'ok',
      );
  }

  private async shareTab(): Promise<void> {
    const tab = this.currentTab();
    if (tab === null) return;
    const answer = await this.link.user({ kind: 'share_tab', tabId: tab });
    if (!answer.ok) this.say(`Not shared: ${answer.reason}`, 'bad');
    else this.say('Shared: agents can now work in this tab.', 'ok');
  }

  private say(text: string, tone: 'ok' | 'bad'): void {
    this.message.hidden = text === '';
    this.message.textContent = text;
    this.message.className = `message ${tone}`;
  }
}
