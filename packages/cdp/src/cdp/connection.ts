/**
 * One connection to a browser: commands with replies, events, and flat-mode sessions (every message
 * of an attached target carries its sessionId on the same channel). Knows nothing of tabs or actions.
 */
import { CallbackRegistry } from './callbacks';
import { CdpClosedError, CdpTimeoutError } from './errors';
import type { CdpCommands, CdpEventName, CdpEvents, CdpMethod } from './protocol-types';
import type { CdpTransport } from './transport';

type Handler = (params: unknown, sessionId: string | undefined) => void;

export interface SendOptions {
  sessionId?: string;
  timeoutMs?: number;
}

export class CdpConnection {
  private readonly callbacks = new CallbackRegistry();
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly closeHandlers = new Set<(reason: string) => void>();
  private closeReason: string | undefined;

  constructor(
    private readonly transport: CdpTransport,
    private readonly defaultTimeoutMs = 30_000,
  ) {
    transport.onmessage = (text) => this.dispatch(text);
    transport.onclose = (reason) => this.shut(reason);
  }

  get closed(): boolean {
    return this.closeReason !== undefined;
  }

  send<M extends CdpMethod>(
    method: M,
    params: CdpCommands[M]['params'],
    options: SendOptions = {},
  ): Promise<CdpCommands[M]['result']> {
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    return this.callbacks.create(method, timeoutMs, (id) => {
      const message: Record<string, unknown> = { id, method, params };
      if (options.sessionId !== undefined) message.sessionId = options.sessionId;
      this.transport.send(JSON.stringify(message));
    }) as Promise<CdpCommands[M]['result']>;
  }

  on<E extends CdpEventName>(
    event: E,
    handler: (params: CdpEvents[E], sessionId: string | undefined) => void,
  ): () => void {
    let set = this.handlers.get(event);
    if (set === undefined) {
      set = new Set();
      this.handlers.set(event, set);
    }
    const wrapped = handler as Handler;
    set.add(wrapped);
    return () => set.delete(wrapped);
  }

  /** Called once when the connection ends (immediately if it already has). */
  onClose(handler: (reason: string) => void): () => void {
    if (this.closeReason !== undefined) {
      const reason = this.closeReason;
      queueMicrotask(() => handler(reason));
      return () => undefined;
    }
    this.closeHandlers.add(handler);
    return () => this.closeHandlers.delete(handler);
  }

  /**
   * Resolves with the first event that matches; rejects on timeout or when the connection closes,
   * so no caller can wait on a browser that is gone.
   */
  waitFor<E extends CdpEventName>(
    event: E,
    options: {
      sessionId?: string;
      timeoutMs: number;
      what: string;
      match?: (params: CdpEvents[E]) => boolean;
    },
  ): { promise: Promise<CdpEvents[E]>; cancel(): void } {
    let cancel = (): void => undefined;
    const promise = new Promise<CdpEvents[E]>((resolve, reject) => {
      const off = this.on(event, (params, sessionId) => {
        if (options.sessionId !== undefined && sessionId !== options.sessionId) return;
        if (options.match !== undefined && !options.match(params)) return;
        done();
        resolve(params);
      });
      const offClose = this.onClose((reason) => {
        done();
        reject(new CdpClosedError(`${options.what}: the browser connection closed (${reason})`));
      });
      const timer = setTimeout(() => {
        done();
        reject(new CdpTimeoutError(`${options.what}: not seen within ${options.timeoutMs} ms`));
      }, options.timeoutMs);
      function done(): void {
        off();
        offClose();
        clearTimeout(timer);
      }
      cancel = done;
    });
    return { promise, cancel: () => cancel() };
  }

  close(): void {
    this.transport.close();
    this.shut('closed by the driver');
  }

  private dispatch(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (message === null || typeof message !== 'object') return;
    const m = message as {
      id?: unknown;
      method?: unknown;
      params?: unknown;
      sessionId?: unknown;
      result?: unknown;
      error?: unknown;
    };
    if (typeof m.id === 'number') {
      if (m.error !== undefined) {
        const error = (m.error ?? {}) as { message?: unknown; code?: unknown; data?: unknown };
        const detail = typeof error.data === 'string' ? ` (${error.data})` : '';
        this.callbacks.fail(
          m.id,
          `${typeof error.message === 'string' ? error.message : 'unknown error'}${detail}`,
          typeof error.code === 'number' ? error.code : undefined,
        );
      } else {
        this.callbacks.resolve(m.id, m.result ?? {});
      }
      return;
    }
    if (typeof m.method !== 'string') return;
    const set = this.handlers.get(m.method);
    if (set === undefined) return;
    const sessionId = typeof m.sessionId === 'string' ? m.sessionId : undefined;
    for (const handler of [...set]) handler(m.params ?? {}, sessionId);
  }

  private shut(reason: string): void {
    if (this.closeReason !== undefined) return;
    this.closeReason = reason;
    this.callbacks.rejectAll(reason);
    for (const handler of [...this.closeHandlers]) handler(reason);
    this.closeHandlers.clear();
  }
}
