/**
 * The service worker's one port to the native host (`com.bproxy.host`), held for the life of the
 * browser: an open native port keeps an MV3 worker alive, and one host process then serves the whole
 * browser (a port per panel open would start a process each time). Hello/welcome checks the native
 * protocol version; every message is validated against the protocol's schemas both ways; large
 * messages arrive in chunks and are reassembled here. Requests with an `id` resolve with the host's
 * answer (or its `error`); everything else — chat streams, terminal output, the daemon watcher's
 * location pushes — goes to listeners. When the host is not installed the state says so, and the port
 * is tried again only on a wake-up after a pause, never in a loop.
 */
import {
  ChunkReassembler,
  HostToExtensionSchema,
  NATIVE_HOST_NAME,
  NATIVE_PROTOCOL_VERSION,
  NativeChunkSchema,
  formatIssues,
  versionSkew,
  type ExtensionToHost,
  type HostToExtension,
} from '@bproxy/protocol';
import type { ChromeApi, PortLike } from '../../chrome-api';
import { PendingAnswers, type Unanswered } from '../../common/pending-answers';
import type { HostState, HostStatus } from '../../common/worker-status';
import { messageOf } from '../driver/errors';
import type { WorkerLog } from '../log';

/** Requests that expect an answer with the same id, as callers write them (the id is added on sending). */
type HostRequest = Extract<ExtensionToHost, { id: string }>;
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;
type Listener = (message: HostToExtension) => void;

export interface NativeHostOptions {
  chrome: Pick<ChromeApi, 'runtime'>;
  log: WorkerLog;
  extensionVersion: string;
  now?: () => number;
  /** How long a request waits for its answer. */
  requestTimeoutMs?: number;
  /** After the host was missing or failed, wake-ups try again at most this often. */
  retryAfterMs?: number;
}

/** What a request that got no answer from the host says. */
function unanswered(why: Unanswered): string {
  switch (why.kind) {
    case 'deadline':
      return 'the native host did not answer in time';
    case 'duplicate':
      return 'a request with this id already waits for the native host';
    case 'lost':
      return `the native host went away: ${why.why}`;
  }
}

const MISSING = /not found/i;
const FORBIDDEN = /forbidden/i;

export class NativeHost {
  private port: PortLike | null = null;
  private state: HostState = 'idle';
  private hostVersion: string | null = null;
  private cli: string | null = null;
  private lastError: string | null = null;
  private lastAttemptAt = Number.NEGATIVE_INFINITY;
  private readonly pending: PendingAnswers<HostToExtension>;
  private readonly listeners = new Set<Listener>();
  private readonly stateListeners = new Set<(status: HostStatus) => void>();
  private readonly chunks = new ChunkReassembler();
  private welcomed: Promise<boolean> | null = null;
  private readonly now: () => number;
  private readonly retryAfterMs: number;

  constructor(private readonly opts: NativeHostOptions) {
    this.now = opts.now ?? Date.now;
    this.retryAfterMs = opts.retryAfterMs ?? 60_000;
    this.pending = new PendingAnswers({
      prefix: 'x',
      deadlineMs: opts.requestTimeoutMs ?? 20_000,
      unanswered: (id, why) => this.localError(unanswered(why), id),
    });
  }

  status(): HostStatus {
    return {
      state: this.state,
      hostVersion: this.hostVersion,
      lastError: this.lastError,
      ...(this.cli === null ? {} : { cli: this.cli }),
    };
  }

  get connected(): boolean {
    return this.state === 'connected';
  }

  /** Messages that answer no request (streams, pushes). Returns the unsubscribe function. */
  onMessage(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onStatus(listener: (status: HostStatus) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /**
   * Opens the port unless it is open or opening. After a failure, a wake-up tries again only when
   * `retryAfterMs` passed (or `force`, for the user's explicit "try again"). Resolves with whether
   * the host said welcome.
   */
  ensure(force = false): Promise<boolean> {
    if (this.welcomed && (this.state === 'connected' || this.state === 'connecting')) return this.welcomed;
    if (!force && this.now() - this.lastAttemptAt < this.retryAfterMs && this.state !== 'idle')
      return Promise.resolve(false);
    this.welcomed = this.open();
    return this.welcomed;
  }

  /** Sends a message that expects no answer (a chat message, a stop, terminal input). */
  send(message: Exclude<ExtensionToHost, { id: string }>): boolean {
    if (!this.port || this.state !== 'connected') return false;
    this.port.postMessage(message);
    return true;
  }

  /**
   * Sends a request and resolves with the message that answers its id (possibly an `error`). `id` is
   * the id its sender chose when the request is passed on (a panel's); one is minted otherwise.
   */
  async request(message: WithoutId<HostRequest>, id?: string): Promise<HostToExtension> {
    // Connected: post at once (in this turn), so requests keep the order they were made in.
    if (this.state !== 'connected' && !(await this.ensure()))
      return this.localError(this.lastError ?? 'the native host is not available', id);
    const port = this.port;
    if (!port) return this.localError('the native host went away', id);
    return this.pending.request((sent) => port.postMessage({ ...message, id: sent }), id);
  }

  /**
   * A failure on our side of the port (no host, a host gone or silent): NO_NATIVE_HOST, whose hint says
   * to install or check the host — not NO_DAEMON, which would send the user to start the daemon.
   */
  private localError(message: string, id?: string): HostToExtension {
    return { type: 'error', code: 'NO_NATIVE_HOST', message, ...(id === undefined ? {} : { id }) };
  }

  private open(): Promise<boolean> {
    this.lastAttemptAt = this.now();
    this.setState('connecting');
    let port: PortLike;
    try {
      port = this.opts.chrome.runtime.connectNative(NATIVE_HOST_NAME);
    } catch (error) {
      this.fail('failed', `could not start the native host: ${messageOf(error)}`);
      return Promise.resolve(false);
    }
    this.port = port;
    return new Promise<boolean>((resolve) => {
      let settled = false;
      const settle = (value: boolean) => {
        if (settled) return;
        settled = true;
        resolve(value);
      };
      port.onMessage.addListener((raw) => {
        if (this.port !== port) return;
        const message = this.receive(raw);
        if (message === null) return;
        if (message.type === 'welcome') {
          if (message.protocolVersion !== NATIVE_PROTOCOL_VERSION) {
            this.fail(
              'failed',
              `the native host speaks protocol ${message.protocolVersion}, this extension ${NATIVE_PROTOCOL_VERSION}: run \`bproxy setup\` again`,
            );
            port.disconnect();
            settle(false);
            return;
          }
          const skew = versionSkew(
            { part: 'native host', version: message.hostVersion },
            { part: 'extension', version: this.opts.extensionVersion },
          );
          if (skew !== null) {
            this.fail('failed', skew.message);
            port.disconnect();
            settle(false);
            return;
          }
          this.hostVersion = message.hostVersion;
          this.cli = message.cli ?? null;
          this.lastError = null;
          this.setState('connected');
          this.opts.log.info('native_host_connected', { hostVersion: message.hostVersion });
          settle(true);
          return;
        }
        if (message.type === 'error' && message.code === 'VERSION_MISMATCH' && this.state !== 'connected') {
          // The host refused our version: its message names the older part and the fix. It exits next:
          // that exit is not what the user needs to read.
          this.port = null;
          this.chunks.clear();
          this.fail('failed', message.message);
          this.pending.settleAll(message.message);
          port.disconnect();
          settle(false);
          return;
        }
        this.dispatch(message);
      });
      port.onDisconnect.addListener(() => {
        if (this.port !== port) return;
        const why = this.opts.chrome.runtime.lastError?.message ?? 'the native host exited';
        this.port = null;
        this.chunks.clear();
        const state: HostState = MISSING.test(why) ? 'missing' : FORBIDDEN.test(why) ? 'forbidden' : 'failed';
        this.fail(state, why);
        this.pending.settleAll(why);
        settle(false);
      });
      port.postMessage({
        type: 'hello',
        protocolVersion: NATIVE_PROTOCOL_VERSION,
        extensionVersion: this.opts.extensionVersion,
      } satisfies ExtensionToHost);
    });
  }

  /** Validates one message (reassembling chunks); null when it is not a whole, valid message yet. */
  private receive(raw: unknown): HostToExtension | null {
    let value = raw;
    const chunk = NativeChunkSchema.safeParse(raw);
    if (chunk.success) {
      const outcome = this.chunks.accept(chunk.data);
      if (outcome.kind === 'partial') return null;
      if (outcome.kind === 'dropped') {
        this.opts.log.warn('native_chunk_dropped', { reason: outcome.reason });
        return null;
      }
      try {
        value = JSON.parse(outcome.text) as unknown;
      } catch {
        this.opts.log.warn('native_bad_message', { reason: 'a reassembled message is not JSON' });
        return null;
      }
    }
    const parsed = HostToExtensionSchema.safeParse(value);
    if (!parsed.success) {
      this.opts.log.warn('native_bad_message', { reason: formatIssues(parsed.error, value) });
      return null;
    }
    return parsed.data;
  }

  private dispatch(message: HostToExtension): void {
    const id = 'id' in message ? message.id : undefined;
    if (id !== undefined && this.pending.answer(id, message)) return;
    for (const listener of [...this.listeners]) listener(message);
  }

  private fail(state: HostState, why: string): void {
    this.lastError = why;
    this.hostVersion = null;
    this.cli = null;
    this.setState(state);
    this.opts.log.info('native_host_unavailable', { state, reason: why });
  }

  private setState(state: HostState): void {
    this.state = state;
    const status = this.status();
    for (const listener of [...this.stateListeners]) listener(status);
  }
}
