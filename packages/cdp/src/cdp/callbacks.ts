/**
 * Pending CDP calls. The Error is created when the call is sent, so a failure's stack points at the
 * caller rather than at the socket handler; each call has its own timer whose message says what to
 * change; closing rejects everything still pending with CdpClosedError.
 */
import { CdpClosedError, CdpProtocolError, CdpTimeoutError } from './errors';

interface Pending {
  method: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** Made at send time for its stack; filled in when the call fails. */
  origin: Error;
  timer: ReturnType<typeof setTimeout>;
}

export class CallbackRegistry {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closedReason: string | undefined;

  /** Registers a call, hands its id to `send`, and settles when the browser answers. */
  create(method: string, timeoutMs: number, send: (id: number) => void): Promise<unknown> {
    if (this.closedReason !== undefined) {
      return Promise.reject(
        new CdpClosedError(`${method}: the browser connection is closed (${this.closedReason})`),
      );
    }
    const id = this.nextId++;
    const origin = new Error();
    const promise = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(
          withStack(
            new CdpTimeoutError(
              `${method} got no answer from the browser within ${timeoutMs} ms; the browser may be busy or hung — raise the request's deadline or check the browser`,
            ),
            origin,
          ),
        );
      }, timeoutMs);
      this.pending.set(id, { method, resolve, reject, origin, timer });
    });
    try {
      send(id);
    } catch (error) {
      this.reject(
        id,
        new CdpClosedError(
          `${method}: could not send (${error instanceof Error ? error.message : String(error)})`,
        ),
      );
    }
    return promise;
  }

  resolve(id: number, value: unknown): void {
    const entry = this.take(id);
    entry?.resolve(value);
  }

  fail(id: number, message: string, code?: number): void {
    const entry = this.take(id);
    if (entry === undefined) return;
    entry.reject(
      withStack(new CdpProtocolError(entry.method, `${entry.method}: ${message}`, code), entry.origin),
    );
  }

  rejectAll(reason: string): void {
    this.closedReason = reason;
    for (const [id, entry] of this.pending) {
      this.pending.delete(id);
      clearTimeout(entry.timer);
      entry.reject(
        withStack(
          new CdpClosedError(`${entry.method}: the browser connection closed (${reason})`),
          entry.origin,
        ),
      );
    }
  }

  get size(): number {
    return this.pending.size;
  }

  private reject(id: number, error: Error): void {
    const entry = this.take(id);
    entry?.reject(withStack(error, entry.origin));
  }

  private take(id: number): Pending | undefined {
    const entry = this.pending.get(id);
    if (entry === undefined) return undefined;
    this.pending.delete(id);
    clearTimeout(entry.timer);
    return entry;
  }
}

function withStack<E extends Error>(error: E, origin: Error): E {
  if (origin.stack !== undefined)
    error.stack = `${error.name}: ${error.message}\n${origin.stack.split('\n').slice(1).join('\n')}`;
  return error;
}
