/**
 * `/json/list` of the bridge's endpoint, with the real target listing behind it: a WebSocket server
 * plays the browser's DevTools port and answers `Target.getTargets` as Chrome does. What the tool
 * receives must not name that port: a WebSocket URL there would lead past the bridge's gate.
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { WebSocketServer } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTargets } from '../../src/downstream/list-targets';
import { startEndpoint, type Endpoint } from '../../src/upstream/endpoint-server';

const TOKEN = 'list-targets-test-secret-0123456789abcdef';
const TARGETS = [
  {
    targetId: 'PAGE-1',
    type: 'page',
    title: 'Inbox',
    url: 'https://mail.example/inbox',
    attached: false,
    canAccessOpener: false,
    browserContextId: 'CTX-1',
  },
  {
    targetId: 'WORKER-1',
    type: 'service_worker',
    title: 'sw',
    url: 'https://mail.example/sw.js',
    attached: true,
    canAccessOpener: false,
    browserContextId: 'CTX-1',
  },
];

let browser: WebSocketServer;
let browserWsUrl: string;
let endpoint: Endpoint;
const asked: string[] = [];

beforeAll(async () => {
  browser = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => browser.once('listening', () => resolve()));
  const { port } = browser.address() as AddressInfo;
  browserWsUrl = `ws://127.0.0.1:${port}/devtools/browser/REAL-BROWSER-ID`;
  browser.on('connection', (socket) => {
    socket.on('message', (data) => {
      const command = JSON.parse(data.toString()) as { id: number; method: string };
      asked.push(command.method);
      if (command.method === 'Target.getTargets')
        socket.send(JSON.stringify({ id: command.id, result: { targetInfos: TARGETS } }));
    });
  });
  endpoint = await startEndpoint({
    port: 0,
    token: TOKEN,
    product: 'bproxy-bridge/test',
    listTargets: () => listTargets(browserWsUrl, 5_000),
    onSocket: (transport) => transport.close(),
    logger: pino({ level: 'silent' }),
  });
});

afterAll(async () => {
  await endpoint.close();
  for (const client of browser.clients) client.terminate();
  await new Promise<void>((resolve) => browser.close(() => resolve()));
});

function getList(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: endpoint.port,
        path,
        headers: { Host: `127.0.0.1:${endpoint.port}`, Authorization: `Bearer ${TOKEN}` },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe("/json/list of the bridge's endpoint", () => {
  it.each(['/json/list', '/json'])(
    "lists the browser's targets on %s without a WebSocket URL or the browser's port",
    async (path) => {
      const before = asked.length;
      const { status, body } = await getList(path);
      expect(status).toBe(200);
      // The browser was really asked: the list comes from its answer.
      expect(asked.slice(before)).toEqual(['Target.getTargets']);
      const { port } = browser.address() as AddressInfo;
      expect(body).not.toContain(`:${port}`);
      expect(body).not.toMatch(/wss?:\/\//);
      expect(body).not.toContain('REAL-BROWSER-ID');
      expect(JSON.parse(body)).toEqual([
        {
          id: 'PAGE-1',
          type: 'page',
          title: 'Inbox',
          url: 'https://mail.example/inbox',
          attached: false,
          description: '',
        },
        {
          id: 'WORKER-1',
          type: 'service_worker',
          title: 'sw',
          url: 'https://mail.example/sw.js',
          attached: true,
          description: '',
        },
      ]);
    },
  );
});
