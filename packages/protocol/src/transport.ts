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
 * through JSON so that neither end can share mutable objects with the other.
 */
export function createLinkedTransportPair<A, B>(): [MessageTransport<A, B>, MessageTransport<B, A>] {
  let open = true;
  const left: MessageTransport<A, B> = {
    send(message) {
      if (!open) return;
      const copy = JSON.parse(JSON.stringify(message)) as B;
      queueMicrotask(() => open && right.onmessage?.(copy));
    },
    close(reason = 'closed') {
      shut(reason);
    },
  };
  const right: MessageTransport<B, A> = {
    send(message) {
      if (!open) return;
      const copy = JSON.parse(JSON.stringify(message)) as A;
      queueMicrotask(() => open && left.onmessage?.(copy));
    },
    close(reason = 'closed') {
      shut(reason);
    },
  };
  function shut(reason: string): void {
    if (!open) return;
    open = false;
    queueMicrotask(() => {
      left.onclose?.(reason);
      right.onclose?.(reason);
    });
  }
  return [left, right];
}
