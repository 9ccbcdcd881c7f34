/**
 * The far side of a CdpTransport for unit tests: records what the relay sent (parsed) and lets the
 * test deliver messages or close the channel, as a tool or a browser would.
 */
import type { CdpTransport } from '@bproxy/cdp/wire';

export interface FakeEnd extends CdpTransport {
  readonly sent: Record<string, unknown>[];
  deliver(message: unknown): void;
  /** The far side goes away (the relay did not ask for it). */
  drop(reason?: string): void;
  closedByRelay: boolean;
}

export function fakeEnd(): FakeEnd {
  const end: FakeEnd = {
    sent: [],
    closedByRelay: false,
    send(message) {
      end.sent.push(JSON.parse(message) as Record<string, unknown>);
    },
    close() {
      if (end.closedByRelay) return;
      end.closedByRelay = true;
      queueMicrotask(() => end.onclose?.('closed by the relay'));
    },
    deliver(message) {
      end.onmessage?.(JSON.stringify(message));
    },
    drop(reason = 'websocket closed (1006)') {
      end.onclose?.(reason);
    },
  };
  return end;
}

/**
 * Waits until `check` holds, turning the event loop (everything here is in memory, so a bounded number
 * of turns is enough); fails naming `what` otherwise.
 */
export async function until<T>(what: string, check: () => T | undefined | false): Promise<T> {
  for (let turn = 0; turn < 1_000; turn++) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`never happened: ${what}`);
}
