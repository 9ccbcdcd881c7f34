/**
 * The popup's DOM: looks up its elements once and renders a WorkerStatus into them. No logic about
 * pairing or connections; popup.ts decides, this file only shows.
 */
import { UNREACHABLE, type WorkerStatus } from '../common/messages';
import { cliLine, setupCommand, untrustedHostHint } from '../common/user-commands';

export type Tone = 'ok' | 'bad' | 'warn' | '';

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`popup.html has no #${id}`);
  return found as T;
}

export class PopupView {
  readonly form = element<HTMLFormElement>('pair-form');
  readonly code = element<HTMLInputElement>('code');
  readonly port = element<HTMLInputElement>('port');
  readonly pairButton = element<HTMLButtonElement>('pair');
  readonly unpairButton = element<HTMLButtonElement>('unpair');
  readonly shareButton = element<HTMLButtonElement>('share-button');
  readonly openPanel = element<HTMLButtonElement>('open-panel');
  readonly startDaemon = element<HTMLButtonElement>('start-daemon');
  readonly copyButton = element<HTMLButtonElement>('copy-line');
  private readonly shareSection = element('share');
  private readonly shared = element('shared');
  private readonly shareTitle = element('share-title');
  private readonly shareIntro = element('share-intro');
  readonly sharedLine = element('shared-line');
  private readonly shareMessage = element('share-message');
  private readonly paired = element('paired');
  private readonly connection = element('connection');
  private readonly daemon = element('daemon');
  private readonly tabs = element('tabs');
  private readonly host = element('host');
  private readonly hostHint = element('host-hint');
  private readonly problem = element('problem');
  private readonly message = element('pair-message');
  private readonly title = element('pair-title');
  private readonly version = element('version');

  showStatus(status: WorkerStatus, reachable: boolean | null): void {
    this.version.textContent = `v${status.version}`;
    this.set(
      this.paired,
      status.paired ? (status.pairedVia === 'host' ? 'yes, by the native host' : 'yes, with a code') : 'no',
      status.paired ? 'ok' : 'warn',
    );
    this.showHost(status);
    const [text, tone] = connectionText(status);
    this.set(this.connection, text, tone);
    this.tabs.textContent = `${status.drivenTabs}${status.inFlight > 0 ? ` (${status.inFlight} action${status.inFlight > 1 ? 's' : ''} running)` : ''}`;
    // The daemon is down and the native host can start it: that is the remedy, not a new pairing.
    const startable = status.state === 'waiting' && reachable === false && status.host.state === 'connected';
    this.startDaemon.hidden = !startable;
    const problem = startable
      ? 'bproxy is not running.'
      : (status.stopReason ?? (status.state === 'waiting' ? explain(status.lastError, reachable) : null));
    this.problem.hidden = problem === null;
    this.problem.textContent = problem ?? '';
    // A pairing the native host made it keeps by itself: no form, no Re-pair, no Forget to trip over.
    this.form.hidden = status.paired && status.pairedVia === 'host' && status.host.state === 'connected';
    this.title.textContent = status.paired ? 'Pair again' : 'Pair with bproxy';
    this.pairButton.textContent = status.paired ? 'Re-pair' : 'Pair';
    this.unpairButton.hidden = !status.paired || this.form.hidden;
    this.showDaemon(reachable);
  }

  private showHost(status: WorkerStatus): void {
    const [text, tone, hint] = hostText(status);
    this.set(this.host, text, tone);
    this.hostHint.hidden = hint === '';
    this.hostHint.textContent = hint;
  }

  private showDaemon(reachable: boolean | null): void {
    if (reachable === null) this.set(this.daemon, 'unknown', '');
    else this.set(this.daemon, reachable ? 'reachable' : 'not reachable', reachable ? 'ok' : 'bad');
  }

  /** Sharing needs a live connection: the section shows only then. */
  showShare(available: boolean): void {
    this.shareSection.hidden = !available;
  }

  /** The tab is a session's: the line that drives it, and no Share. */
  showShared(session: string, cli: string | undefined): void {
    this.shared.hidden = false;
    this.sharedLine.textContent = cliLine(session, cli);
    this.shareTitle.textContent = 'This tab is shared with agents';
    this.shareIntro.hidden = true;
    this.shareButton.hidden = true;
  }

  /** The tab in front is no session's: offer to share it. */
  showUnshared(): void {
    this.shared.hidden = true;
    this.shareTitle.textContent = 'Share this tab with agents';
    this.shareIntro.hidden = false;
    this.shareButton.hidden = false;
  }

  sayShare(text: string, tone: Tone): void {
    this.shareMessage.hidden = text === '';
    this.shareMessage.textContent = text;
    this.shareMessage.className = `message ${tone}`;
  }

  showWorkerMissing(): void {
    this.set(this.connection, 'extension worker not answering', 'bad');
  }

  say(text: string, tone: Tone): void {
    this.message.hidden = text === '';
    this.message.textContent = text;
    this.message.className = `message ${tone}`;
  }

  busy(on: boolean): void {
    this.pairButton.disabled = on;
  }

  private set(el: HTMLElement, text: string, tone: Tone): void {
    el.textContent = text;
    el.className = `value ${tone}`;
  }
}

function explain(lastError: string | null, reachable: boolean | null): string | null {
  if (lastError !== UNREACHABLE || reachable === null) return lastError;
  return reachable
    ? 'The daemon is running but refuses this extension’s token (it was paired again elsewhere, or its state was reset): pair again with a new code.'
    : 'The daemon is not running, or listens on another port. Start it with `bproxy service start`; the extension reconnects by itself.';
}

function connectionText(status: WorkerStatus): [string, Tone] {
  switch (status.state) {
    case 'connected':
      return ['connected', 'ok'];
    case 'connecting':
    case 'idle':
      return ['connecting…', 'warn'];
    case 'waiting':
      return [`retrying (attempt ${status.attempts})`, 'warn'];
    case 'stopped':
      return ['stopped', 'bad'];
    case 'unpaired':
      return ['not paired', 'warn'];
  }
}

/** The native host row, and what to do about it. */
function hostText(status: WorkerStatus): [string, Tone, string] {
  const { host, autoPairing } = status;
  switch (host.state) {
    case 'connected': {
      const failed = autoPairing.state === 'failed' ? `Automatic pairing failed: ${autoPairing.reason}` : '';
      return [`connected${host.hostVersion ? ` (v${host.hostVersion})` : ''}`, 'ok', failed];
    }
    case 'idle':
    case 'connecting':
      return ['starting…', 'warn', ''];
    case 'missing':
      return [
        'not installed',
        'warn',
        `Run \`${setupCommand()}\` once on this computer: the browser then pairs itself and finds the daemon on its own. Pairing with a code below works without it.`,
      ];
    case 'forbidden':
      return ['refused', 'bad', untrustedHostHint()];
    case 'failed':
      return ['failed', 'bad', host.lastError ?? 'The native host stopped; see BPROXY_HOME/host/host.log.'];
  }
}
