/**
 * The one real browser behind every relay of this bridge, and the bridge's runtime state. It decides
 * from the disconnect signals when the browser is gone; then, in the pipe lifecycle, the bridge
 * closes (the tool restarts it on its next operation), and in the ws lifecycle it degrades and waits
 * for the next request to recover — attach to the profile's browser if one runs, else launch — once,
 * however many relays ask at the same time. A failed recovery is fatal, as the seed's policy says.
 */
import type { AcquiredBrowser } from '../downstream/attach-or-launch';
import type { BridgeLogger } from '../log';
import { DisconnectSignals, type DisconnectVerdict } from '../relay/disconnect-signals';
import { RuntimeStateMachine, type RuntimeState } from './runtime-state';

/** pipe: the tool speaks over fd 3/4 and the bridge lives and dies with one browser; ws: it recovers. */
export type TransportMode = 'pipe' | 'ws';

export interface KeeperOptions {
  readonly transportMode: TransportMode;
  readonly acquire: () => Promise<AcquiredBrowser>;
  readonly logger: BridgeLogger;
}

export class BrowserKeeper {
  readonly signals = new DisconnectSignals();
  private readonly machine = new RuntimeStateMachine();
  private browser: AcquiredBrowser | undefined;
  private generationCount = 0;
  private recoveryAttempt = 0;
  private recovering: Promise<AcquiredBrowser> | undefined;
  private readonly degradedListeners = new Set<() => void>();
  private readonly closingListeners = new Set<(why: { reason: string; failed: boolean }) => void>();

  constructor(private readonly options: KeeperOptions) {}

  get state(): RuntimeState {
    return this.machine.state;
  }

  get transportMode(): TransportMode {
    return this.options.transportMode;
  }

  /** Bumped on every (re)connection, so a relay can tell its downstream belongs to a dead browser. */
  get generation(): number {
    return this.generationCount;
  }

  get current(): AcquiredBrowser | undefined {
    return this.browser;
  }

  /** The seed's observability fields, on every line about the bridge's state. */
  fields(): Record<string, unknown> {
    return {
      transportMode: this.options.transportMode,
      runtimeState: this.machine.state,
      ownership: this.browser?.ownership,
      userDataDir: this.browser?.userDataDir,
      debugPort: this.browser?.port,
      browserPid: this.browser?.pid,
    };
  }

  async start(): Promise<AcquiredBrowser> {
    this.browser = await this.options.acquire();
    this.generationCount++;
    // A signal during the launch: the browser is recorded (so cleanup sees it) but never served.
    if (this.machine.state === 'closing') return this.browser;
    this.machine.move('connected');
    this.options.logger.info({ ...this.fields(), headless: this.browser.headless }, 'browser connected');
    return this.browser;
  }

  /** The browser connection closed without the bridge closing it: a strong signal. */
  reportLoss(strongSignal: string, detail: string): void {
    if (this.machine.state !== 'connected') return;
    const verdict: DisconnectVerdict = this.signals.strong(strongSignal);
    const base = { disconnectSignals: verdict.signals.join(','), cause: verdict.cause, detail };
    this.signals.clear();
    if (this.options.transportMode === 'pipe') {
      this.options.logger.warn({ ...this.fields(), ...base }, 'browser lost; the bridge exits (pipe)');
      // The designed end of a pipe bridge, not a failure: the tool starts a new one when it needs it.
      this.close('the browser went away', false);
      return;
    }
    this.machine.move('degraded');
    this.options.logger.warn({ ...this.fields(), ...base }, 'browser lost; degraded until the next request');
    for (const listener of [...this.degradedListeners]) listener();
  }

  /** Brings the browser back (ws lifecycle); concurrent callers share one attempt. */
  recover(): Promise<AcquiredBrowser> {
    if (this.machine.state === 'connected' && this.browser !== undefined)
      return Promise.resolve(this.browser);
    if (this.machine.state !== 'degraded')
      return Promise.reject(new Error(`the bridge is ${this.machine.state}`));
    this.recovering ??= this.runRecovery().finally(() => (this.recovering = undefined));
    return this.recovering;
  }

  private async runRecovery(): Promise<AcquiredBrowser> {
    const attempt = ++this.recoveryAttempt;
    this.options.logger.info({ ...this.fields(), recoveryAttempt: attempt }, 'recovering the browser');
    const started = performance.now();
    try {
      const browser = await this.options.acquire();
      if (this.machine.state !== 'degraded') throw new Error(`the bridge is ${this.machine.state}`);
      this.browser = browser;
      this.generationCount++;
      this.machine.move('connected');
      this.options.logger.info(
        {
          ...this.fields(),
          recoveryAttempt: attempt,
          recoveryResult: browser.ownership === 'attached' ? 'attached' : 'relaunched',
          recoveryMs: Math.round(performance.now() - started),
        },
        'browser recovered',
      );
      return browser;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.options.logger.error(
        { ...this.fields(), recoveryAttempt: attempt, recoveryResult: 'failed', error: message },
        'recovery failed; the bridge exits',
      );
      this.close(`recovery failed: ${message}`, true);
      throw error;
    }
  }

  /** Enters `closing` (once) and tells the runtime why. */
  close(reason: string, failed: boolean): void {
    if (this.machine.state === 'closing') return;
    this.machine.move('closing');
    this.options.logger.info({ ...this.fields(), reason }, 'closing');
    for (const listener of [...this.closingListeners]) listener({ reason, failed });
  }

  onDegraded(listener: () => void): () => void {
    this.degradedListeners.add(listener);
    return () => this.degradedListeners.delete(listener);
  }

  onClosing(listener: (why: { reason: string; failed: boolean }) => void): () => void {
    this.closingListeners.add(listener);
    return () => this.closingListeners.delete(listener);
  }
}
