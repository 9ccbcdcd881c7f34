/**
 * The one transport shape between the daemon and a driver, whatever carries it: a WebSocket for the
 * extension, an in-process pair for the CDP driver, a linked pair in tests. Four members, as in
 * puppeteer's ConnectionTransport. `In` is what this end receives, `Out` what it sends.
 */
export interface MessageTransport<In, Out> {
  send(message: Out): void;
  close(reason?: string): void;
  onmessage?: (message: In) => void;
  onclose?: (reason: string) => void;
}

/**
 * Two connected in-memory ends. Delivery is asynchronous (a microtask), like a socket, so that no
 * caller can depend on re-entrancy that a real transport would not give it. Messages are cloned
 * through JSON so that neither end can share mutable objects with the other. Messages that arrive
 * before an end has its `onmessage` handler are kept and delivered once it is set, as a socket's
 * receive buffer would, so an end may be handed over before anyone listens on it.
 */
export function createLinkedTransportPair<A, B>(): [MessageTransport<A, B>, MessageTransport<B, A>] {
  let open = true;
  const left = new LinkedEnd<A, B>();
  const right = new LinkedEnd<B, A>();
  const shut = (reason: string) => {
    if (!open) return;
    open = false;
    queueMicrotask(() => {
      left.onclose?.(reason);
      right.onclose?.(reason);
    });
  };
  left.wire((m) => open && right.receive(m), shut);
  right.wire((m) => open && left.receive(m), shut);
  return [left, right];
}

class LinkedEnd<In, Out> implements MessageTransport<In, Out> {
  onclose?: (reason: string) => void;
  private handler: ((message: In) => void) | undefined;
  private readonly backlog: In[] = [];
  private deliver: (message: Out) => void = () => undefined;
  private shut: (reason: string) => void = () => undefined;

  wire(deliver: (message: Out) => void, shut: (reason: string) => void): void {
    this.deliver = deliver;
    this.shut = shut;
  }

  get onmessage(): ((message: In) => void) | undefined {
    return this.handler;
  }

  set onmessage(handler: ((message: In) => void) | undefined) {
    this.handler = handler;
    if (!handler) return;
    while (this.backlog.length > 0 && this.handler === handler) {
      const next = this.backlog.shift() as In;
      handler(next);
    }
  }

  send(message: Out): void {
    const copy = JSON.parse(JSON.stringify(message)) as Out;
    queueMicrotask(() => this.deliver(copy));
  }

  close(reason = 'closed'): void {
    this.shut(reason);
  }

  receive(message: In): void {
    if (this.handler) this.handler(message);
    else this.backlog.push(message);
  }
}
