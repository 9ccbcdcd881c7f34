/**
 * CDP over --remote-debugging-pipe: the browser reads commands on its fd 3 and writes replies and
 * events on its fd 4, each message a JSON text ended by a NUL byte.
 */
import type { Readable, Writable } from 'node:stream';
import type { CdpTransport } from './transport';

export function createPipeTransport(toBrowser: Writable, fromBrowser: Readable): CdpTransport {
  let closed = false;
  let pending: Buffer[] = [];
  const transport: CdpTransport = {
    send(message) {
      if (closed) return;
      toBrowser.write(message);
      toBrowser.write('\0');
    },
    close() {
      shut('closed by the driver');
      toBrowser.end();
    },
  };
  fromBrowser.on('data', (chunk: Buffer) => {
    let start = 0;
    let end = chunk.indexOf(0);
    while (end !== -1) {
      pending.push(chunk.subarray(start, end));
      const message = Buffer.concat(pending).toString('utf8');
      pending = [];
      if (!closed) transport.onmessage?.(message);
      start = end + 1;
      end = chunk.indexOf(0, start);
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  });
  // A write to a pipe whose reader died raises EPIPE: that is the browser going away, not a crash.
  toBrowser.on('error', () => shut('the browser pipe broke'));
  fromBrowser.on('error', () => shut('the browser pipe broke'));
  fromBrowser.on('close', () => shut('the browser closed its pipe'));
  function shut(reason: string): void {
    if (closed) return;
    closed = true;
    transport.onclose?.(reason);
  }
  return transport;
}
