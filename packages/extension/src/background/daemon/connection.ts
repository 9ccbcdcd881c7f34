/**
 * The worker's one connection to the daemon: first the daemon proves it holds our pairing (POST
 * /pair/proof, daemon-proof.ts) — until it has, the token is not sent and nothing is obeyed — then WS
 * with the subprotocol token, `hello` first, reconnect
 * with capped exponential backoff and full jitter, an app-level ping every 20 s that both keeps the MV3
 * worker alive and detects a socket that is dead but not yet closed. Incoming requests are handed to
 * `onRequest`; their answers go back on the socket they arrived on (a replay after a reconnect is
 * answered from the executed-request table). It does not execute anything itself.
 */
import {
  APP_PING_INTERVAL_MS,
  DaemonMessageSchema,
  PROTOCOL_VERSION,
  WS_CLOSE,
  WS_SUBPROTOCOL,
  wsAuthProtocol,
  type BproxyError,
  type DaemonMessage,
  type DriverMessage,
  type DriverResponseMessage,
  type HelloMessage,
  type UserRequest,
  type UserResult,
} from '@bproxy/protocol';
import { Backoff, DEFAULT_BACKOFF } from './backoff';
import type { ProofOutcome } from './daemon-proof';
import type { WorkerLog } from '../log';
import type { PairingStore, StoredPairing } from './pairing-state';
import type { SocketFactory, SocketLike } from './socket';
import { UNREACHABLE } from '../../common/messages';
import { PendingAnswers } from '../../common/pending-answers';
import type { ConnectionState, ConnectionStatus } from '../../common/worker-status';

export interface ConnectionOptions {
  socketFactory: SocketFactory;
  /** Asks the server at the paired URL to prove it holds our token (daemon-proof.ts), before any socket. */
  prove: (wsUrl: string, extensionToken: string) => Promise<ProofOutcome>;
  pairing: PairingStore;
  log: WorkerLog;
  random: () => number;
  clientInfo: () => Promise<Omit<HelloMessage['client'], 'instanceId'>>;
  onRequest: (request: unknown, reply: (message: DriverResponseMessage) => void) => void;
  /**
   * What the daemon tells this browser unasked: a shared tab released, an activity entry, the state of
   * the sessions holding its tabs.
   */
  onPush: (message: DaemonPush) => void;
  /** The server on the paired port did not prove itself (the native host may know better). */
  onProofFailed: (outcome: Extract<ProofOutcome, { ok: false }>) => void;
  /**
   * The link is down — it dropped, an attempt failed, it stopped, or nothing is paired: no session the
   * daemon held can be known live now (the browser view lets go of their tab groups).
   */
  onDown?: () => void;
  /** The daemon welcomed this browser, with its settings for the driver (the debugger's idle period). */
  onWelcome?: (settings: { debuggerIdleMs: number | null; downloadMaxBytes: number | null }) => void;
  now?: () => number;
  pingIntervalMs?: number;
  pongTimeoutMs?: number;
  helloTimeoutMs?: number;
  /** A connection that lasted at least this long resets the backoff, so the next retry is immediate. */
  stableAfterMs?: number;
  /** Wake-ups (alarms, tab events) never retry faster than this. */
  minWakeGapMs?: number;
}

const STALE_CLOSE = 4000;

const OUTBOX_LIMIT = 100;
/** A user request (sharing a tab) the daemon has not answered within this long fails. */
const USER_REQUEST_TIMEOUT_MS = 10_000;

export type UserAnswer = { ok: true; result: UserResult } | { ok: false; reason: string };
export type DaemonPush = Extract<
  DaemonMessage,
  { type: 'tab_released' | 'activity' | 'sessions' | 'approvals' | 'nav_guard' }
>;

export class Connection {
  private state: ConnectionState = 'idle';
  private socket: SocketLike | null = null;
  private readonly backoff: Backoff;
  private wsUrl: string | null = null;
  private pairedVia: 'code' | 'host' | null = null;
  private lastError: string | null = null;
  private stopReason: string | null = null;
  private connectedAt: number | null = null;
  private lastAttemptAt = 0;
  /** Bumped by every attempt, so that an attempt overtaken while it read storage gives up. */
  private generation = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private pongTimer: ReturnType<typeof setTimeout> | null = null;
  private helloTimer: ReturnType<typeof setTimeout> | null = null;
  /** Pushes (navigation, tab_closed) made while disconnected, sent after the next welcome. */
  private readonly outbox: DriverMessage[] = [];
  private readonly userRequests = new PendingAnswers<UserAnswer>({
    prefix: 'u',
    deadlineMs: USER_REQUEST_TIMEOUT_MS,
    unanswered: (_id, why) => ({
      ok: false,
      reason:
        why.kind === 'deadline'
          ? 'the daemon did not answer in time'
          : 'the connection to bproxy was lost before it answered',
    }),
  });
  private readonly now: () => number;
  private readonly opts: Required<Omit<ConnectionOptions, 'now'>>;
  /** Who waits for the next welcome (whenConnected). */
  private readonly connectedWaiters = new Set<() => void>();

  constructor(options: ConnectionOptions) {
    this.now = options.now ?? Date.now;
    this.opts = {
      pingIntervalMs: APP_PING_INTERVAL_MS,
      pongTimeoutMs: 10_000,
      helloTimeoutMs: 10_000,
      stableAfterMs: 2_000,
      minWakeGapMs: 1_000,
      onDown: () => undefined,
      onWelcome: () => undefined,
      ...options,
    };
    this.backoff = new Backoff({ ...DEFAULT_BACKOFF, random: options.random });
  }

  status(): ConnectionStatus {
    return {
      state: this.state,
      paired: this.state !== 'unpaired' && this.wsUrl !== null,
      pairedVia: this.state !== 'unpaired' && this.wsUrl !== null ? this.pairedVia : null,
      wsUrl: this.wsUrl,
      lastError: this.lastError,
      stopReason: this.stopReason,
      connectedAt: this.connectedAt,
      attempts: this.backoff.attempts,
    };
  }

  /** Called by every wake path (alarm, startup, tab and navigation events, popup). Cheap when connected. */
  ensureConnected(): void {
    switch (this.state) {
      case 'connecting':
      case 'connected':
      case 'stopped':
      // Pairing changes arrive through restart(); until then there is nothing to connect to.
      case 'unpaired':
        return;
      case 'waiting':
        // A wake-up cuts a long backoff short, but never hammers a daemon that is down.
        if (this.now() - this.lastAttemptAt < this.opts.minWakeGapMs) return;
        this.clearRetry();
        void this.connect();
        return;
      case 'idle':
        void this.connect();
        return;
    }
  }

  /**
   * Something says the daemon is there now (the native host saw it start): try at once, whatever the
   * backoff says. A live or opening connection is left alone.
   */
  /** Resolves true once the link is connected (at once if it is), false after `timeoutMs`. */
  whenConnected(timeoutMs: number): Promise<boolean> {
    if (this.state === 'connected') return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ok: boolean): void => {
        clearTimeout(timer);
        this.connectedWaiters.delete(welcomed);
        resolve(ok);
      };
      const welcomed = (): void => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.connectedWaiters.add(welcomed);
    });
  }

  retryNow(): void {
    if (this.state !== 'waiting' && this.state !== 'idle') return;
    this.clearRetry();
    void this.connect();
  }

  /** After a new pairing: drop whatever we had and connect with the new token at once. */
  restart(): void {
    this.clearRetry();
    const old = this.socket;
    this.teardown();
    old?.close(1000, 'pairing changed');
    this.stopReason = null;
    this.lastError = null;
    this.backoff.reset();
    this.state = 'idle';
    void this.connect();
  }

  /**
   * Sends what the user asked for in the browser's UI (share a tab) and resolves with the daemon's
   * answer. Only on a live connection: a request made while disconnected fails at once, so the user
   * sees why instead of waiting.
   */
  userRequest(request: UserRequest): Promise<UserAnswer> {
    const socket = this.socket;
    if (this.state !== 'connected' || !socket)
      return Promise.resolve({
        ok: false,
        reason: 'bproxy is not connected: start the daemon, then try again',
      });
    return this.userRequests.request((requestId) =>
      socket.send(JSON.stringify({ type: 'user_request', requestId, request })),
    );
  }

  /** Queues or sends a push; pushes made while disconnected are flushed after the next welcome. */
  push(message: DriverMessage): void {
    if (this.state === 'connected' && this.socket) {
      this.socket.send(JSON.stringify(message));
      return;
    }
    this.outbox.push(message);
    if (this.outbox.length > OUTBOX_LIMIT) this.outbox.splice(0, this.outbox.length - OUTBOX_LIMIT);
  }

  private async connect(): Promise<void> {
    this.state = 'connecting';
    this.lastAttemptAt = this.now();
    const generation = ++this.generation;
    const pairing = await this.opts.pairing.load();
    if (generation !== this.generation || this.state !== 'connecting') return;
    if (!pairing) {
      this.wsUrl = null;
      this.state = 'unpaired';
      this.opts.onDown();
      return;
    }
    this.wsUrl = pairing.wsUrl;
    this.pairedVia = pairing.pairedVia ?? 'code';
    let hello: HelloMessage;
    try {
      hello = {
        type: 'hello',
        protocolVersion: PROTOCOL_VERSION,
        client: { instanceId: await this.opts.pairing.instanceId(), ...(await this.opts.clientInfo()) },
      };
    } catch (error) {
      this.fail(`could not read the extension state: ${String(error)}`);
      return;
    }
    if (generation !== this.generation || this.state !== 'connecting') return;
    // The token goes on the wire only to a server that just proved it holds it for this port.
    let proof: ProofOutcome;
    try {
      proof = await this.opts.prove(pairing.wsUrl, pairing.extensionToken);
    } catch (error) {
      proof = { ok: false, kind: 'unproven', message: `the daemon proof failed: ${String(error)}` };
    }
    if (generation !== this.generation || this.state !== 'connecting') return;
    if (!proof.ok) {
      if (proof.kind !== 'unreachable') this.opts.log.warn('daemon_unproven', { reason: proof.message });
      this.fail(proof.message);
      this.opts.onProofFailed(proof);
      return;
    }
    this.open(pairing, hello);
  }

  /** Opens the socket to a daemon that just proved itself; `hello` goes first once it is open. */
  private open(pairing: StoredPairing, hello: HelloMessage): void {
    let socket: SocketLike;
    try {
      socket = this.opts.socketFactory(pairing.wsUrl, [
        WS_SUBPROTOCOL,
        wsAuthProtocol(pairing.extensionToken),
      ]);
    } catch (error) {
      this.fail(`could not open ${pairing.wsUrl}: ${String(error)}`);
      return;
    }
    this.socket = socket;
    this.opts.log.debug('ws_connecting', { url: pairing.wsUrl, attempt: this.backoff.attempts });
    socket.onopen = () => {
      if (this.socket !== socket) return;
      socket.send(JSON.stringify(hello));
      this.helloTimer = setTimeout(
        () => this.drop(socket, 'the daemon did not answer hello'),
        this.opts.helloTimeoutMs,
      );
    };
    socket.onmessage = (data) => this.onMessage(socket, data);
    socket.onclose = (code, reason) => this.onClose(socket, code, reason);
  }

  private onMessage(socket: SocketLike, data: unknown): void {
    if (this.socket !== socket) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(typeof data === 'string' ? data : '');
    } catch {
      this.opts.log.warn('ws_bad_message', { reason: 'not JSON' });
      return;
    }
    const message = DaemonMessageSchema.safeParse(parsed);
    if (!message.success) {
      // A request we cannot parse still deserves an answer if it carries an id: the executor gives it.
      const raw = parsed as { type?: unknown; request?: unknown };
      if (raw && raw.type === 'request') this.handleRequest(socket, raw.request);
      else this.opts.log.warn('ws_bad_message', { reason: 'outside the protocol' });
      return;
    }
    const msg = message.data;
    switch (msg.type) {
      case 'welcome':
        this.onWelcome(socket, msg.clientName);
        this.opts.onWelcome?.({
          debuggerIdleMs: msg.debuggerIdleMs ?? null,
          downloadMaxBytes: msg.downloadMaxBytes ?? null,
        });
        return;
      case 'pong':
        if (this.pongTimer) clearTimeout(this.pongTimer);
        this.pongTimer = null;
        return;
      case 'request':
        this.handleRequest(socket, msg.request);
        return;
      case 'error':
        this.onDaemonError(socket, msg.error);
        return;
      case 'user_answer':
        this.userRequests.answer(
          msg.requestId,
          msg.ok
            ? { ok: true, result: msg.result }
            : { ok: false, reason: `${msg.error.code}: ${msg.error.message}` },
        );
        return;
      case 'tab_released':
      case 'activity':
      case 'sessions':
      case 'nav_guard':
      case 'approvals':
        this.opts.onPush(msg);
        return;
    }
  }

  private handleRequest(socket: SocketLike, request: unknown): void {
    this.opts.onRequest(request, (response) => {
      // Only on the socket it came in on: after a reconnect the daemon replays, and the table answers.
      if (this.socket === socket && this.state === 'connected') socket.send(JSON.stringify(response));
      else
        this.opts.log.info('response_held', { id: response.id, reason: 'socket closed; answered on replay' });
    });
  }

  private onWelcome(socket: SocketLike, clientName: string): void {
    if (this.helloTimer) clearTimeout(this.helloTimer);
    this.helloTimer = null;
    this.state = 'connected';
    this.connectedAt = this.now();
    this.lastError = null;
    this.opts.log.info('ws_connected', { clientName });
    for (const message of this.outbox.splice(0)) socket.send(JSON.stringify(message));
    this.pingTimer = setInterval(() => this.ping(socket), this.opts.pingIntervalMs);
    for (const welcomed of [...this.connectedWaiters]) welcomed();
  }

  private ping(socket: SocketLike): void {
    if (this.socket !== socket) return;
    if (this.pongTimer) return; // still waiting for the previous pong; its timer decides
    socket.send(JSON.stringify({ type: 'ping', ts: this.now() }));
    this.pongTimer = setTimeout(
      () => this.drop(socket, 'no pong from the daemon: the connection is stale'),
      this.opts.pongTimeoutMs,
    );
  }

  private onDaemonError(socket: SocketLike, error: BproxyError): void {
    this.opts.log.warn('ws_daemon_error', { code: error.code, message: error.message });
    if (error.code === 'VERSION_MISMATCH') {
      // The daemon's message names the older part and the one step that fixes it.
      this.stop(socket, error.message);
    } else if (error.code === 'PROTOCOL_MISMATCH') {
      this.stop(socket, `protocol mismatch: ${error.message} — update bproxy or the extension so both match`);
    } else {
      this.lastError = `${error.code}: ${error.message}`;
    }
  }

  /** How long the current connection has been up (0 before its welcome). */
  private uptime(): number {
    return this.connectedAt !== null && this.state === 'connected' ? this.now() - this.connectedAt : 0;
  }

  private onClose(socket: SocketLike, code: number, reason: string): void {
    if (this.socket !== socket) return;
    const lasted = this.uptime();
    this.teardown();
    this.opts.log.info('ws_closed', { code, reason });
    if (code === WS_CLOSE.protocolMismatch) {
      this.stopReason = `protocol mismatch${reason ? `: ${reason}` : ''} — update bproxy or the extension so both match`;
      this.state = 'stopped';
      this.opts.onDown();
      return;
    }
    if (code === WS_CLOSE.tokenRevoked) {
      this.stopReason = 'the daemon revoked this extension token (another pairing replaced it): pair again';
      this.state = 'stopped';
      this.opts.onDown();
      return;
    }
    if (lasted >= this.opts.stableAfterMs) this.backoff.reset();
    this.fail(
      code === 1006 || code === 1005 ? UNREACHABLE : `closed (${code}${reason ? `: ${reason}` : ''})`,
    );
  }

  /** Gives up on a socket now (stale, or no welcome) without waiting for its close event. */
  private drop(socket: SocketLike, why: string): void {
    if (this.socket !== socket) return;
    const lasted = this.uptime();
    this.teardown();
    try {
      socket.close(STALE_CLOSE, 'stale');
    } catch {
      // already closed
    }
    this.opts.log.warn('ws_dropped', { reason: why });
    if (lasted >= this.opts.stableAfterMs) this.backoff.reset();
    this.fail(why);
  }

  private stop(socket: SocketLike, why: string): void {
    this.teardown();
    socket.close(1000, 'stopping');
    this.stopReason = why;
    this.state = 'stopped';
    this.opts.onDown();
  }

  private fail(why: string): void {
    this.lastError = why;
    this.state = 'waiting';
    this.opts.onDown();
    const delay = this.backoff.next();
    this.opts.log.debug('ws_retry', { delayMs: delay });
    this.clearRetry();
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.state === 'waiting') void this.connect();
    }, delay);
  }

  private teardown(): void {
    this.userRequests.settleAll('the connection closed');
    for (const timer of [this.pongTimer, this.helloTimer]) if (timer) clearTimeout(timer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = this.pongTimer = this.helloTimer = null;
    this.socket = null;
    this.connectedAt = null;
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }
}
