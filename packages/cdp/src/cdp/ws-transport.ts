/**
 * CDP over a WebSocket: a DevTools ws URL of a local browser (attach) or a browser farm (remote).
 */
import WebSocket from 'ws';
import type { CdpTransport } from './transport';

/** Screenshots of long pages are the largest messages a browser sends. */
const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

export function connectWebSocket(url: string, timeoutMs: number): Promise<CdpTransport> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, {
      perMessageDeflate: false,
      maxPayload: MAX_MESSAGE_BYTES,
      handshakeTimeout: timeoutMs,
    });
    let opened = false;
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
    socket.on('message', (data, isBinary) => {
      if (isBinary) return;
      transport.onmessage?.(data.toString());
    });
    socket.on('error', (error) => {
      if (!opened)
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

/** Farm URLs carry tokens in the query string: never print them. */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.search !== '') parsed.search = '?…';
    if (parsed.password !== '') parsed.password = '…';
    return parsed.toString();
  } catch {
    return '(invalid url)';
  }
}
