/**
 * DaemonClient: sends actions to the daemon of BPROXY_HOME and reads its answers. It finds the daemon
 * (find-daemon.ts), starts it when asked to (long-lived clients such as the MCP server), builds the
 * request envelope with a fresh id and a deadline, posts it and checks the answer.
 *
 * A daemon may go away or restart under a long-lived client, and while it is away any local process
 * may bind its port. So the transport sends the token and a request only on a connection where the
 * daemon proved it holds the token (proof.ts). An endpoint remembered from an earlier call may be
 * stale: when nothing listens on its port any more, what listens there cannot prove it is the daemon,
 * or the daemon refuses its token (a restarted daemon has a new one), the client finds the daemon
 * again in BPROXY_HOME — once — and tells its listeners (onReconnect: the sessions they held are
 * gone). A listener that cannot prove itself on an endpoint found for this very call is DAEMON_NOT_PROVEN:
 * nothing was sent to it. An endpoint found for this very call is
 * the truth, and its failures are reported as they are. A kept-alive socket the daemon had already
 * closed is retried once on a fresh one, with the same request id, so the daemon still runs the
 * action once.
 */
import { DEFAULT_TIMEOUT_MS, type RequestAgent } from '@bproxy/protocol/plain';
import { type Answer, readAnswer, requestEnvelope } from './answer';
import { ClientError, noDaemonError } from './errors';
import { findDaemon, type DaemonEndpoint } from './find-daemon';
import { TransportError, type HttpReply, type Transport } from './http';
import type { Env } from './lifecycle/config';
import { openTransport } from './open-transport';
import { newRequestId } from './request-id';

/** Headroom over the deadline, so that the daemon's own TIMEOUT answer arrives before we give up. */
const GRACE_MS = 5_000;

export interface DaemonClientOptions {
  /** Where to find the daemon (BPROXY_HOME, HOME); default process.env. */
  readonly env?: Env;
  /** Talk to this daemon rather than the one of BPROXY_HOME (a daemon in this process, a benchmark). */
  readonly endpoint?: DaemonEndpoint;
  /**
   * Starts the daemon when none runs — typically `() => startDaemon(options)` from
   * `@bproxy/client/service`, passed in so that a client that never starts one never loads that code.
   * Absent: never start one.
   */
  readonly start?: () => Promise<unknown>;
  /** Keep connections open between calls: for long-lived clients. Default: one connection per call. */
  readonly keepAlive?: boolean;
  /** With keepAlive, how many requests may be on the wire at once (default 8; more wait their turn). */
  readonly connections?: number;
  /**
   * Which kind of agent this client is, said in every request (the browser's Activity shows it); a
   * function when it is learnt later (an MCP client's name arrives with its `initialize`).
   */
  readonly agent?: RequestAgent | (() => RequestAgent | undefined);
}

export interface CallOptions {
  readonly session?: string;
  /** The request's deadline, from now (default 30 s); the client waits a little longer for the answer. */
  readonly timeoutMs?: number;
  /** A request id of the caller's own, to send the same request again; default a fresh one. */
  readonly id?: string;
}

export class DaemonClient {
  private known: DaemonEndpoint | null = null;
  private finding: Promise<DaemonEndpoint> | null = null;
  private transport: Promise<Transport> | null = null;
  /** Once set, the client never looks for (or starts) a daemon again. */
  private settled = false;
  private readonly reconnectListeners = new Set<() => void>();
  private agentOf: DaemonClientOptions['agent'];

  constructor(private readonly options: DaemonClientOptions = {}) {
    if (options.endpoint !== undefined) this.known = options.endpoint;
    this.agentOf = options.agent;
  }

  /**
   * Sends one action and resolves with the daemon's answer, success or error envelope. Local failures
   * (no daemon, an unsafe state file, no answer, an answer outside the protocol) throw a ClientError.
   */
  async call(action: string, params: Record<string, unknown>, options: CallOptions = {}): Promise<Answer> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const id = options.id ?? newRequestId();
    for (let attempt = 0; ; attempt++) {
      const remembered = this.known !== null;
      const endpoint = await this.endpoint();
      const body = JSON.stringify(
        requestEnvelope(id, action, params, options.session, Date.now() + timeoutMs, this.agent()),
      );
      const mayReconnect =
        remembered && attempt === 0 && !this.settled && this.options.endpoint === undefined;
      let reply: HttpReply;
      try {
        reply = await this.post(endpoint, body, timeoutMs + GRACE_MS);
      } catch (error) {
        if (!(error instanceof TransportError)) throw error;
        if ((error.failure === 'refused' || error.failure === 'not-proven') && mayReconnect) {
          this.forget(endpoint);
          continue;
        }
        throw transportError(error, endpoint, timeoutMs + GRACE_MS);
      }
      const answer = readAnswer(reply, id);
      if (!answer.ok && answer.error.code === 'UNAUTHORIZED' && mayReconnect) {
        this.forget(endpoint);
        continue;
      }
      return answer;
    }
  }

  /** Says from now on which kind of agent this client is (DaemonClientOptions.agent). */
  identify(agent: RequestAgent | (() => RequestAgent | undefined)): void {
    this.agentOf = agent;
  }

  private agent(): RequestAgent | undefined {
    const agent = this.agentOf;
    return typeof agent === 'function' ? agent() : agent;
  }

  /** The daemon this client talks to: remembered, found in BPROXY_HOME, or started. */
  endpoint(): Promise<DaemonEndpoint> {
    if (this.known !== null) return Promise.resolve(this.known);
    if (this.settled)
      return Promise.reject(new ClientError('NO_DAEMON', 'this client no longer looks for a daemon'));
    if (this.finding === null) {
      const finding = this.find().then(
        (endpoint) => {
          if (this.finding === finding) this.finding = null;
          this.known = endpoint;
          return endpoint;
        },
        (error: unknown) => {
          if (this.finding === finding) this.finding = null;
          throw error;
        },
      );
      this.finding = finding;
    }
    return this.finding;
  }

  /**
   * Calls `listener` whenever the daemon this client talked to turned out gone or restarted (the
   * sessions it held are gone with it). Returns the function that unsubscribes.
   */
  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  /** From now on the client talks to the daemon it knows, or to none: no finding or starting another. */
  stopReconnecting(): void {
    this.settled = true;
  }

  /** Closes kept-alive connections; the client stops looking for daemons. */
  close(): void {
    this.settled = true;
    void this.transport?.then((transport) => transport.close());
  }

  private async find(): Promise<DaemonEndpoint> {
    const env = this.options.env ?? process.env;
    const start = this.options.start;
    try {
      return findDaemon(env);
    } catch (error) {
      if (start === undefined || !(error instanceof ClientError) || error.code !== 'NO_DAEMON') throw error;
    }
    try {
      await start();
    } catch (error) {
      // Another client (or a person) may have started it meanwhile: the lockfile decided, use theirs.
      try {
        return findDaemon(env);
      } catch {
        const why = error instanceof Error ? error.message : String(error);
        throw new ClientError('NO_DAEMON', `cannot find or start the bproxy daemon: ${why}`);
      }
    }
    return findDaemon(env);
  }

  private async post(endpoint: DaemonEndpoint, body: string, timeoutMs: number): Promise<HttpReply> {
    this.transport ??= openTransport(
      this.options.keepAlive === true ? { maxSockets: this.options.connections ?? 8 } : null,
    );
    const transport = await this.transport;
    try {
      return await transport.post(endpoint, body, timeoutMs);
    } catch (error) {
      // The daemon closed an idle kept-alive socket just as we sent: the request never reached it.
      if (error instanceof TransportError && error.failure === 'stale-socket')
        return transport.post(endpoint, body, timeoutMs);
      throw error;
    }
  }

  /** Drops `stale`, unless a concurrent call already replaced it (then its listeners heard once). */
  private forget(stale: DaemonEndpoint): void {
    if (this.known !== stale) return;
    this.known = null;
    void this.transport?.then((transport) => transport.reset());
    for (const listener of [...this.reconnectListeners]) listener();
  }
}

function transportError(error: TransportError, endpoint: DaemonEndpoint, waitedMs: number): ClientError {
  switch (error.failure) {
    case 'refused':
      return noDaemonError(endpoint.home, `nothing listens on port ${endpoint.port}`);
    case 'not-proven':
      return new ClientError('DAEMON_NOT_PROVEN', `${error.message}; nothing was sent to it`);
    case 'version-mismatch':
      return new ClientError(
        'VERSION_MISMATCH',
        `${error.message}; nothing was sent to it`,
        error.daemonVersion,
      );
    case 'timeout':
      return new ClientError(
        'DAEMON_UNREACHABLE',
        `the daemon did not answer within ${Math.round(waitedMs / 1000)} s`,
      );
    case 'stale-socket':
    case 'failed':
      return new ClientError(
        'DAEMON_UNREACHABLE',
        `cannot reach the daemon on port ${endpoint.port}: ${error.message}`,
      );
  }
}
