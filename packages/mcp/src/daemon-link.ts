/**
 * Talking to the daemon: POST / with the bearer token over one keep-alive connection (an agent's
 * clicks should not pay a TCP handshake each), answers checked against the protocol envelope and the
 * action's result schema. Finding (or starting) the daemon is not done here: the embedding CLI hands in
 * `connect`, so the state-file checks and the start logic exist once, in the CLI.
 */
import { randomBytes } from 'node:crypto';
import { Agent } from 'node:http';
import { DaemonHttpError, postToDaemon } from '@bproxy/client';
import {
  BproxyResponseSchema,
  actionDef,
  formatIssues,
  type ActionName,
  type BproxyError,
} from '@bproxy/protocol';

export interface DaemonEndpoint {
  readonly port: number;
  readonly token: string;
}

/** Finds the running daemon of BPROXY_HOME, starting it when none runs. */
export type Connect = () => Promise<DaemonEndpoint>;

export type CallOutcome = { ok: true; data: unknown } | { ok: false; error: LinkError };

/** A daemon error envelope, or one the server makes itself (no daemon, bad answer). */
export interface LinkError {
  readonly code: string;
  readonly message: string;
  readonly hint?: string;
  readonly reason?: string;
}

/** Headroom over the deadline, so that the daemon's own TIMEOUT answer arrives before we give up. */
const GRACE_MS = 5_000;

function newRequestId(): string {
  return `mcp-${randomBytes(9).toString('base64url')}`;
}

interface HttpReply {
  status: number;
  body: string;
}

/** Nothing listens on the port: the daemon is gone (or restarted elsewhere). */
class Unreachable extends Error {}
class StaleSocket extends Error {}

export class DaemonLink {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 8 });
  private endpoint: Promise<DaemonEndpoint> | null = null;
  /** Once the server is shutting down it never starts (or looks for) a daemon again. */
  private closing = false;
  /** Called when the daemon the server talked to is gone (its sessions with it). */
  onReconnect: () => void = () => {};

  constructor(private readonly connect: Connect) {}

  private resolveEndpoint(): Promise<DaemonEndpoint> {
    if (this.endpoint === null && this.closing)
      return Promise.reject(new Error('the server is shutting down'));
    if (this.endpoint === null) {
      const pending = this.connect();
      this.endpoint = pending;
      pending.catch(() => {
        if (this.endpoint === pending) this.endpoint = null;
      });
    }
    return this.endpoint;
  }

  private async post(endpoint: DaemonEndpoint, body: string, timeoutMs: number): Promise<HttpReply> {
    try {
      return await postToDaemon(endpoint, body, {
        agent: this.agent,
        timeoutMs,
        onTimeout: () => new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`),
      });
    } catch (error) {
      if (!(error instanceof DaemonHttpError)) throw error;
      if (error.code === 'ECONNREFUSED') throw new Unreachable(error.message);
      // An idle keep-alive socket the daemon had just closed: the request never reached it.
      if (error.code === 'ECONNRESET' && error.reusedSocket) throw new StaleSocket(error.message);
      throw error;
    }
  }

  /** Runs one action. `session` is passed through; `timeoutMs` becomes the request's deadline. */
  async call(
    action: ActionName,
    params: Record<string, unknown>,
    session: string | undefined,
    timeoutMs: number,
  ): Promise<CallOutcome> {
    for (let attempt = 0; ; attempt++) {
      let endpoint: DaemonEndpoint;
      try {
        endpoint = await this.resolveEndpoint();
      } catch (error) {
        return { ok: false, error: noDaemon(error) };
      }
      const id = newRequestId();
      const body = JSON.stringify({
        id,
        action,
        ...(session === undefined ? {} : { session }),
        params,
        deadline: Date.now() + timeoutMs,
      });
      let reply: HttpReply;
      try {
        reply = await this.postOnce(endpoint, body, timeoutMs + GRACE_MS);
      } catch (error) {
        if (error instanceof Unreachable && attempt === 0 && !this.closing) {
          this.forget();
          continue;
        }
        const message = error instanceof Error ? error.message : String(error);
        return {
          ok: false,
          error: {
            code: 'DAEMON_UNREACHABLE',
            message: `the daemon did not answer: ${message}`,
            hint: 'Check `bproxy service status`; the next call reconnects',
          },
        };
      }
      const outcome = parseReply(reply, id, action);
      // A daemon restarted on the same port has a new token: find it again, once.
      if (!outcome.ok && outcome.error.code === 'UNAUTHORIZED' && attempt === 0 && !this.closing) {
        this.forget();
        continue;
      }
      return outcome;
    }
  }

  /** Sends again on a fresh socket when a reused one turned out dead; the same request id keeps it exactly-once. */
  private async postOnce(endpoint: DaemonEndpoint, body: string, timeoutMs: number): Promise<HttpReply> {
    try {
      return await this.post(endpoint, body, timeoutMs);
    } catch (error) {
      if (error instanceof StaleSocket) return this.post(endpoint, body, timeoutMs);
      throw error;
    }
  }

  private forget(): void {
    this.endpoint = null;
    this.agent.destroy();
    this.onReconnect();
  }

  /** No more reconnecting: the last calls (closing the session) go to the daemon we know, or nowhere. */
  shutdown(): void {
    this.closing = true;
  }

  close(): void {
    this.closing = true;
    this.agent.destroy();
  }
}

function noDaemon(error: unknown): LinkError {
  const message = error instanceof Error ? error.message : String(error);
  return {
    code: 'NO_DAEMON',
    message: `cannot find or start the bproxy daemon: ${message}`,
    hint: 'Run `bproxy service start` in a terminal and read its error',
  };
}

function badResponse(message: string): CallOutcome {
  return {
    ok: false,
    error: {
      code: 'BAD_RESPONSE',
      message,
      hint: 'The MCP server and the daemon may be from different releases: restart the daemon',
    },
  };
}

function parseReply(reply: HttpReply, id: string, action: ActionName): CallOutcome {
  let json: unknown;
  try {
    json = JSON.parse(reply.body);
  } catch {
    return badResponse(`the daemon answered HTTP ${reply.status} with a body that is not JSON`);
  }
  const envelope = BproxyResponseSchema.safeParse(json);
  if (!envelope.success)
    return badResponse(`the daemon's answer is outside the protocol: ${formatIssues(envelope.error, json)}`);
  const response = envelope.data;
  if (response.id !== null && response.id !== id)
    return badResponse(`the daemon answered request ${response.id}, not ${id}`);
  if (!response.ok) return { ok: false, error: fromEnvelope(response.error) };
  const result = actionDef(action).result.safeParse(response.data);
  if (!result.success)
    return badResponse(
      `the ${action} result is outside the protocol: ${formatIssues(result.error, response.data)}`,
    );
  return { ok: true, data: result.data };
}

function fromEnvelope(error: BproxyError): LinkError {
  return {
    code: error.code,
    message: error.message,
    ...(error.hint === undefined ? {} : { hint: error.hint }),
    ...(error.reason === undefined ? {} : { reason: error.reason }),
  };
}
