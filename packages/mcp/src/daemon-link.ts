/**
 * The MCP server's calls to the daemon, on the one daemon client (@bproxy/client), which finds the
 * daemon (or starts it), keeps one connection alive and reconnects after a daemon restart. A local
 * failure (no daemon, a bad answer) comes back as an error answer, never an exception, so the server
 * turns every call into a tool reply.
 */
import { settleAnswer, type Answer, type DaemonClient } from '@bproxy/client';
import type { ActionName } from '@bproxy/protocol';
import { outcomeOf, type CallOutcome } from '@bproxy/tools';

export class DaemonLink {
  /** Called when the daemon the server talked to is gone (its sessions with it). */
  onReconnect: () => void = () => {};

  constructor(private readonly client: DaemonClient) {
    client.onReconnect(() => this.onReconnect());
  }

  /** Runs one action and resolves with the answer. `session` is passed through; `timeoutMs` becomes the request's deadline. */
  answer(
    action: ActionName,
    params: Record<string, unknown>,
    session: string | undefined,
    timeoutMs: number,
  ): Promise<Answer> {
    return settleAnswer(
      this.client.call(action, params, { timeoutMs, ...(session === undefined ? {} : { session }) }),
    );
  }

  /** Runs one action; a successful result is checked against the action's result schema. */
  async call(
    action: ActionName,
    params: Record<string, unknown>,
    session: string | undefined,
    timeoutMs: number,
  ): Promise<CallOutcome> {
    return outcomeOf(action, await this.answer(action, params, session, timeoutMs));
  }

  /** No more reconnecting: the last calls (closing the session) go to the daemon we know, or nowhere. */
  shutdown(): void {
    this.client.stopReconnecting();
  }

  close(): void {
    this.client.close();
  }
}
