/**
 * CDP over a WebSocket: a DevTools ws URL of a local browser (attach) or a browser farm (remote).
 */
import WebSocket from 'ws';
import type { CdpTransport } from './transport';

/** Screenshots of long pages are the largest messages a browser sends. */
const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

/** What a refusing status usually means, for the message: farms answer these when they are full. */
const REFUSALS: Readonly<Record<number, string>> = {
  429: ' (a browser farm at its limit of concurrent browsers)',
  503: ' (the endpoint is overloaded or has no browser to hand out)',
};

export function connectWebSocket(url: string, timeoutMs: number): Promise<CdpTransport> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, {
      perMessageDeflate: false,
      maxPayload: MAX_MESSAGE_BYTES,
      handshakeTimeout: timeoutMs,
    });
    let opened = false;
    let refused = false;
    const transport: CdpTransport = {
      send(message) {
        if (socket.readyState === WebSocket.OPEN) socket.send(message);
      },
      close() {
        if (socket.readyState === WebSocket.CONNECTING || socket.readyState === WebSocket.OPEN)
          socket.close();
      },
    };
    socket.on('open', () => {
      opened = true;
      resolve(transport);
    });
    // An HTTP answer instead of the upgrade: a farm refusing (429, 503), a proxy, a wrong path.
    socket.on('unexpected-response', (_request, response) => {
      refused = true;
      const status = response.statusCode ?? 0;
      const text = response.statusMessage ? ` ${response.statusMessage}` : '';
      response.resume();
      reject(
        new Error(`${redact(url)} refused the connection: HTTP ${status}${text}${REFUSALS[status] ?? ''}`),
      );
      socket.terminate();
    });
    socket.on('message', (data, isBinary) => {
      if (isBinary) return;
      transport.onmessage?.(data.toString());
    });
    socket.on('error', (error) => {
      if (opened || refused) return;
      // The ws library's own wording for its handshake timeout; say what it means here instead.
      if (/handshake has timed out/i.test(error.message)) {
        reject(
          new Error(
            `${redact(url)} did not accept the connection within ${Math.round(timeoutMs / 100) / 10} s (a farm queues connections while all its browsers are busy)`,
          ),
        );
        return;
      }
      reject(new Error(`could not open the DevTools WebSocket ${redact(url)}: ${error.message}`));
    });
    socket.on('close', (code, reason) => {
      if (!opened) {
        reject(new Error(`the DevTools WebSocket ${redact(url)} closed before it opened (${code})`));
        return;
      }
      transport.onclose?.(`websocket closed (${code}${reason.length > 0 ? ` ${reason.toString()}` : ''})`);
    });
  });
}

/** Farm URLs carry tokens in the query string (or as a password): never print them. */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    const password = parsed.password !== '';
    const query = parsed.search !== '';
    parsed.search = '';
    parsed.password = '';
    // Built by hand: URL.toString() would percent-encode the ellipsis.
    const shown = password ? parsed.toString().replace('@', ':…@') : parsed.toString();
    return query ? `${shown}?…` : shown;
  } catch {
    return '(invalid url)';
  }
}
