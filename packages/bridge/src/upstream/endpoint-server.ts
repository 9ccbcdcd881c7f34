/**
 * The bridge's own DevTools endpoint on 127.0.0.1, for tools that connect over a WebSocket:
 * `/json/version` (with the browser WebSocket URL), `/json/list` and the browser WebSocket itself,
 * each behind the gate (endpoint-gate.ts) before anything else happens. Each WebSocket becomes one
 * relay; the endpoint knows nothing of the browser behind it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import type { CdpTransport } from '@bproxy/cdp/wire';
import type { BridgeLogger } from '../log';
import { BROWSER_PATH_PREFIX, checkGate } from './endpoint-gate';

/** Screenshots of long pages are the largest messages; the same bound as the CDP driver's. */
const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

export interface EndpointOptions {
  /** 0: any free port. */
  readonly port: number;
  readonly token: string;
  readonly product: string;
  readonly listTargets: () => Promise<Record<string, unknown>[]>;
  readonly onSocket: (transport: CdpTransport, name: string) => void;
  readonly logger: BridgeLogger;
}

export interface Endpoint {
  readonly port: number;
  /** The browser WebSocket URL, secret path included: printed for the tool that started the bridge. */
  readonly wsUrl: string;
  close(): Promise<void>;
}

function serverSideTransport(socket: WebSocket): CdpTransport {
  const transport: CdpTransport = {
    send(message) {
      if (socket.readyState === WebSocket.OPEN) socket.send(message);
    },
    close() {
      if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING) socket.close();
    },
  };
  socket.on('message', (data, isBinary) => {
    if (!isBinary) transport.onmessage?.(data.toString());
  });
  socket.on('error', () => socket.terminate());
  socket.on('close', (code) => transport.onclose?.(`the tool's WebSocket closed (${code})`));
  return transport;
}

function refuseUpgrade(socket: Duplex): void {
  socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
}

function json(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=UTF-8',
    'Content-Length': Buffer.byteLength(text),
  });
  response.end(text);
}

export async function startEndpoint(options: EndpointOptions): Promise<Endpoint> {
  const expected = { port: options.port, token: options.token };
  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    perMessageDeflate: false,
  });
  let connections = 0;

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const verdict = checkGate(request, expected, 'http');
    if (!verdict.ok) {
      options.logger.warn(
        // A caller may have put the secret in a path of its own: it is never written down.
        { method: request.method, path: request.url?.split('?')[0]?.split(options.token).join('[secret]') },
        'endpoint: refused a request',
      );
      response.writeHead(401, { 'Content-Length': 0, Connection: 'close' }).end();
      return;
    }
    const path = (request.url ?? '').split('?')[0]?.replace(/\/$/, '');
    if (request.method !== 'GET' && request.method !== 'PUT')
      return json(response, 405, { error: 'method not allowed' });
    if (path === '/json/version') {
      return json(response, 200, {
        Browser: options.product,
        'Protocol-Version': '1.3',
        webSocketDebuggerUrl: `ws://${verdict.host}${BROWSER_PATH_PREFIX}${options.token}`,
      });
    }
    if (path === '/json/list' || path === '/json') {
      options.listTargets().then(
        (targets) => json(response, 200, targets),
        (error: unknown) =>
          json(response, 502, { error: error instanceof Error ? error.message : String(error) }),
      );
      return;
    }
    json(response, 404, { error: 'not found' });
  });

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const verdict = checkGate(request, expected, 'websocket');
    const path = (request.url ?? '').split('?')[0] ?? '';
    if (!verdict.ok || !(path === '/devtools/browser' || path.startsWith(BROWSER_PATH_PREFIX))) {
      options.logger.warn({ path: verdict.ok ? path : undefined }, 'endpoint: refused a WebSocket');
      refuseUpgrade(socket);
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => {
      const name = `ws#${++connections}`;
      options.logger.info({ relay: name }, 'endpoint: a tool connected');
      options.onSocket(serverSideTransport(ws), name);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Loopback only, whatever the tool asked for with --remote-debugging-address.
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  expected.port = port;
  return {
    port,
    wsUrl: `ws://127.0.0.1:${port}${BROWSER_PATH_PREFIX}${options.token}`,
    async close() {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
