/**
 * Connecting to a remote endpoint that will not hand out a browser: a farm at its limit answers the
 * upgrade with HTTP 429 or 503, or holds it in a queue. Each ends in an error that says so — with the
 * endpoint's token left out — and never in a hang. Real listeners on 127.0.0.1.
 */
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectWebSocket } from '../src/cdp/ws-transport';

let server: Server | undefined;
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A server whose every upgrade gets `answer` (or nothing at all, when null). */
async function endpoint(answer: { status: number; reason: string } | null): Promise<string> {
  server = createServer();
  server.on('connection', (socket) => sockets.add(socket));
  server.on('upgrade', (_req, socket) => {
    if (answer === null) return; // queued: the upgrade is never answered
    socket.end(
      `HTTP/1.1 ${answer.status} ${answer.reason}\r\ncontent-type: text/plain\r\ncontent-length: 4\r\nconnection: close\r\n\r\nbusy`,
    );
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `ws://127.0.0.1:${address.port}/?token=s3cret-farm-token`;
}

describe('a remote endpoint that refuses or queues', () => {
  it.each([
    [429, 'Too Many Requests', 'a browser farm at its limit'],
    [503, 'Service Unavailable', 'overloaded or has no browser'],
  ])('says HTTP %i and what it means, without the token', async (status, reason, meaning) => {
    const url = await endpoint({ status, reason });
    const error = await connectWebSocket(url, 5_000).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toContain(`/?… refused the connection: HTTP ${status} ${reason}`);
    expect(error?.message).toContain(meaning);
    expect(error?.message).not.toContain('s3cret');
  });

  it('gives up at the timeout when the upgrade is queued, and says so', async () => {
    const url = await endpoint(null);
    const started = Date.now();
    const error = await connectWebSocket(url, 400).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(error?.message).toContain('did not accept the connection within 0.4 s');
    expect(error?.message).toContain('queues connections');
    expect(error?.message).not.toContain('s3cret');
  });
});
