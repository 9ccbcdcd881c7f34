/**
 * The MCP server's calls to the daemon, on the one daemon client (@bproxy/client), which finds the
 * daemon (or starts it), keeps one connection alive and reconnects after a daemon restart. Here every
 * call becomes an outcome the server turns into a tool reply — a local failure is an outcome too, never
 * an exception — and a successful result is checked against the action's result schema before a reply
 * renders it.
 */
import { isClientError, type DaemonClient } from '@bproxy/client';
import type { ActionName } from '@bproxy/protocol';
import { outcomeOf, type CallOutcome } from '@bproxy/tools';

export class DaemonLink {
  /** Called when the daemon the server talked to is gone (its sessions with it). */
  onReconnect: () => void = () => {};

  constructor(private readonly client: DaemonClient) {
    client.onReconnect(() => this.onReconnect());
  }

  /** Runs one action. `session` is passed through; `timeoutMs` becomes the request's deadline. */
  async call(
    action: ActionName,
    params: Record<string, unknown>,
    session: string | undefined,
    timeoutMs: number,
  ): Promise<CallOutcome> {
    let answer;
    try {
      answer = await this.client.call(action, params, {
        timeoutMs,
        ...(session === undefined ? {} : { session }),
      });
    } catch (error) {
      if (!isClientError(error)) throw error;
      return { ok: false, error: { code: error.code, message: error.message, hint: error.hint } };
    }
    return outcomeOf(action, answer);
  }

  /** No more reconnecting: the last calls (closing the session) go to the daemon we know, or nowhere. */
  shutdown(): void {
    this.client.stopReconnecting();
  }

  close(): void {
    this.client.close();
  }
}
