/**
 * A flat-mode session on one attached target: the connection's send/on/waitFor bound to a sessionId.
 */
import type { CdpConnection } from './connection';
import type { CdpCommands, CdpEventName, CdpEvents, CdpMethod } from './protocol-types';

export class CdpSession {
  constructor(
    readonly connection: CdpConnection,
    readonly sessionId: string,
  ) {}

  send<M extends CdpMethod>(
    method: M,
    params: CdpCommands[M]['params'],
    timeoutMs?: number,
  ): Promise<CdpCommands[M]['result']> {
    return this.connection.send(
      method,
      params,
      timeoutMs === undefined ? { sessionId: this.sessionId } : { sessionId: this.sessionId, timeoutMs },
    );
  }

  on<E extends CdpEventName>(event: E, handler: (params: CdpEvents[E]) => void): () => void {
    return this.connection.on(event, (params, sessionId) => {
      if (sessionId === this.sessionId) handler(params);
    });
  }

  waitFor<E extends CdpEventName>(
    event: E,
    options: { timeoutMs: number; what: string; match?: (params: CdpEvents[E]) => boolean },
  ): { promise: Promise<CdpEvents[E]>; cancel(): void } {
    return this.connection.waitFor(event, { ...options, sessionId: this.sessionId });
  }
}
