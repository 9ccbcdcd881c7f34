/**
 * Zero-touch pairing and the daemon's whereabouts through the native host. The host runs as the user:
 * it reads the daemon's real port from BPROXY_HOME, starts the daemon when asked, and obtains a fresh
 * one-time code with the daemon token. The extension then claims that code at /pair/claim exactly as a
 * typed one, so the daemon's pairing rules (one-time codes, the throttle, the single active token) hold
 * unchanged. With the host present the extension never has to guess a port: the host's location wins
 * over the stored URL, and the host tells us the moment a daemon starts.
 *
 * It pairs by itself only when there is no pairing, or when the daemon says it has none (its state
 * was reset) — never because another browser paired after us: two profiles re-pairing in turn would
 * take the token from each other forever. That case stays the user's call.
 */
import { PAIRING_DIRECT_CODE_PATTERN, type HostToExtension } from '@bproxy/protocol';
import { claimPairing } from '../../common/pair-client';
import { setupCommand } from '../../common/user-commands';
import type { AutoPairState } from '../../common/worker-status';
import type { Connection } from '../daemon/connection';
import type { FetchLike, ProofOutcome } from '../daemon/daemon-proof';
import type { WorkerLog } from '../log';
import type { NativeHost } from './native-host';
import type { PairingStore } from '../daemon/pairing-state';

export interface HostPairingOptions {
  host: NativeHost;
  pairing: PairingStore;
  connection: Connection;
  log: WorkerLog;
  now: () => number;
  fetch: FetchLike;
  /** Automatic pairing is tried at most this often (each failed claim counts against the throttle). */
  minGapMs?: number;
}

export class HostPairing {
  private lastTry = Number.NEGATIVE_INFINITY;
  private running: Promise<void> | null = null;
  private outcome: AutoPairState = { state: 'idle' };
  private readonly minGapMs: number;

  constructor(private readonly opts: HostPairingOptions) {
    this.minGapMs = opts.minGapMs ?? 60_000;
  }

  status(): AutoPairState {
    return this.outcome;
  }

  /** Wires the host's unsolicited messages; call once. */
  install(): void {
    this.opts.host.onMessage((message) => {
      if (message.type === 'daemon.location') void this.located(message);
    });
    this.opts.host.onStatus((status) => {
      if (status.state === 'connected') void this.sync();
    });
  }

  /** On start-up and wake-ups: connect to the host, learn where the daemon is, pair if unpaired. */
  async sync(): Promise<void> {
    if (!(await this.opts.host.ensure())) return;
    const answer = await this.opts.host.request({ type: 'daemon.locate', start: false });
    if (answer.type === 'daemon.location') await this.located(answer);
  }

  /**
   * Starts the daemon through the host — the user asked for it (Start bproxy, or Share and Terminal
   * while it is down), as a chat message does — and waits until the link is connected to it.
   */
  async startDaemon(timeoutMs = 15_000): Promise<{ ok: true } | { ok: false; reason: string }> {
    if (!(await this.opts.host.ensure()))
      return { ok: false, reason: `the native host is not available: run \`${setupCommand()}\`` };
    const answer = await this.opts.host.request({ type: 'daemon.locate', start: true });
    if (answer.type !== 'daemon.location')
      return { ok: false, reason: answer.type === 'error' ? answer.message : `unexpected ${answer.type}` };
    if (!answer.running) return { ok: false, reason: 'bproxy did not start' };
    this.opts.log.info('daemon_started_for_user', { port: answer.port, started: answer.started });
    await this.located(answer);
    return (await this.opts.connection.whenConnected(timeoutMs))
      ? { ok: true }
      : { ok: false, reason: 'bproxy started, but this browser could not connect to it' };
  }

  /** The connection's proof failed: a daemon that lost its pairing is re-paired through the host. */
  onProofFailed(outcome: Extract<ProofOutcome, { ok: false }>): void {
    if (outcome.kind === 'unpaired') void this.pair('the daemon has no pairing');
    else if (outcome.kind === 'unproven') void this.sync();
  }

  private async located(location: Extract<HostToExtension, { type: 'daemon.location' }>): Promise<void> {
    const stored = await this.opts.pairing.load();
    if (stored === null) {
      await this.pair('this browser is not paired');
      return;
    }
    if (!location.running || location.port === null) return;
    const moved = await this.opts.pairing.movePort(location.port);
    if (moved !== null && moved.wsUrl !== stored.wsUrl) {
      this.opts.log.info('daemon_moved', { port: location.port });
      this.opts.connection.restart();
      return;
    }
    this.opts.connection.retryNow();
  }

  /** Asks the host for a code (it starts the daemon if none runs) and claims it like a typed one. */
  pair(why: string): Promise<void> {
    if (this.running) return this.running;
    if (this.opts.now() - this.lastTry < this.minGapMs) return Promise.resolve();
    this.lastTry = this.opts.now();
    this.running = this.attempt(why).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async attempt(why: string): Promise<void> {
    this.outcome = { state: 'pairing' };
    this.opts.log.info('auto_pairing', { why });
    const answer = await this.opts.host.request({ type: 'pairing.request' });
    if (answer.type !== 'pairing.code') {
      const reason = answer.type === 'error' ? answer.message : `unexpected ${answer.type}`;
      return this.failed(`the native host gave no pairing code: ${reason}`);
    }
    // A host of this release hands out a direct code; an older one a typed code.
    const kind = PAIRING_DIRECT_CODE_PATTERN.test(answer.code) ? 'direct' : 'typed';
    const claimed = await claimPairing(String(answer.port), answer.code, this.opts.fetch, kind);
    if (!claimed.ok) return this.failed(claimed.message);
    const accepted = await this.opts.pairing.accept(claimed.bootstrap, this.opts.now(), 'host');
    if (!accepted.ok) return this.failed(accepted.reason);
    this.outcome = { state: 'paired', at: this.opts.now() };
    this.opts.log.info('paired', { via: 'host', wsUrl: accepted.pairing.wsUrl });
    this.opts.connection.restart();
  }

  private failed(reason: string): void {
    this.outcome = { state: 'failed', reason, at: this.opts.now() };
    this.opts.log.warn('auto_pairing_failed', { reason });
  }
}
