/**
 * A scripted stand-in for the daemon's extension-facing routes (POST /pair/claim, /pair/proof, GET /ws), for
 * end-to-end tests of the extension as a driver on its own: the test sends forwarded requests and reads
 * the answers and pushes, with no sessions, pacing or handles in between. Like the daemon, it re-sends
 * unanswered requests when the extension reconnects (the extension must deduplicate them).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import {
  computeProof,
  freshNonce,
  PROTOCOL_VERSION,
  wsAuthProtocol,
  type DriverMessage,
  type HelloMessage,
} from '@bproxy/protocol';
import { WebSocketServer, type WebSocket } from 'ws';

export interface SentRequest {
  id: string;
  action: string;
  params: Record<string, unknown>;
  deadline: number;
  target?: { tabId: number };
}

export type ResponseMessage = Extract<DriverMessage, { type: 'response' }>;

export class FakeDaemon {
  readonly token = randomBytes(24).toString('base64url');
  readonly hellos: HelloMessage[] = [];
  readonly pushes: DriverMessage[] = [];
  readonly received: ResponseMessage[] = [];
  connections = 0;
  /** What the next /pair/claim answers; `null` answers a bootstrap. */
  claimError: { status: number; code: string } | null = null;
  claimOrigins: (string | undefined)[] = [];
  private readonly server: Server;
  private readonly wss: WebSocketServer;
  private socket: WebSocket | null = null;
  private readonly pending = new Map<
    string,
    { request: SentRequest; resolve: (r: ResponseMessage) => void }
  >();
  private counter = 0;
  port = 0;

  constructor(readonly pairingCode = 'ABCD-EFGH') {
    this.wss = new WebSocketServer({
      noServer: true,
      handleProtocols: (protocols) => (protocols.has('bproxy.v1') ? 'bproxy.v1' : false),
    });
    this.server = createServer((req, res) => {
      if (req.method === 'POST' && req.url === '/pair/proof') {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          const { clientNonce } = JSON.parse(body) as { clientNonce: string };
          const serverNonce = freshNonce();
          void computeProof(this.token, {
            role: 'daemon-to-extension',
            port: this.port,
            clientNonce,
            serverNonce,
          }).then((proof) =>
            res
              .writeHead(200, { 'content-type': 'application/json' })
              .end(JSON.stringify({ ok: true, data: { serverNonce, proof } })),
          );
        });
        return;
      }
      if (req.method === 'POST' && req.url === '/pair/claim') {
        this.claimOrigins.push(req.headers.origin);
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          const send = (status: number, value: unknown) =>
            res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
          if (this.claimError)
            return send(this.claimError.status, { ok: false, error: { code: this.claimError.code } });
          const code = (JSON.parse(body) as { code?: string }).code;
          if (code !== this.pairingCode)
            return send(401, { ok: false, error: { code: 'PAIRING_CODE_INVALID' } });
          const now = Date.now();
          send(200, {
            ok: true,
            data: {
              extensionToken: this.token,
              wsUrl: `ws://127.0.0.1:${this.port}/ws`,
              protocolVersion: PROTOCOL_VERSION,
              issuedAt: now,
              expiresAt: now + 300_000,
              nonce: randomBytes(8).toString('hex'),
            },
          });
        });
        return;
      }
      res.writeHead(401).end();
    });
    this.server.on('upgrade', (req, socket, head) => {
      const protocols = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
      if (
        req.url !== '/ws' ||
        protocols.length !== 2 ||
        protocols[0] !== 'bproxy.v1' ||
        protocols[1] !== wsAuthProtocol(this.token)
      ) {
        socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n');
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws));
    });
  }

  async start(port = 0): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    const address = this.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    this.port = address.port;
  }

  get connected(): boolean {
    return this.socket !== null;
  }

  /** Sends a forwarded request and resolves with its answer (re-sent after a reconnect until answered). */
  request(
    action: string,
    params: Record<string, unknown>,
    tabId?: number,
    options: { id?: string; timeoutMs?: number; deadline?: number } = {},
  ): Promise<ResponseMessage> {
    const request: SentRequest = {
      id: options.id ?? `r${++this.counter}-${Date.now()}`,
      action,
      params,
      deadline: options.deadline ?? Date.now() + (options.timeoutMs ?? 20_000),
      ...(tabId === undefined ? {} : { target: { tabId } }),
    };
    return new Promise((resolve) => {
      this.pending.set(request.id, { request, resolve });
      this.socket?.send(JSON.stringify({ type: 'request', request }));
    });
  }

  /** Sends a request id again on the current socket, as a replay would. */
  resend(request: SentRequest): void {
    this.socket?.send(JSON.stringify({ type: 'request', request }));
  }

  /** Closes the current socket from the daemon side, as a network drop would look. */
  dropConnection(): void {
    this.socket?.terminate();
    this.socket = null;
  }

  async stop(): Promise<void> {
    for (const client of this.wss.clients) client.terminate();
    this.wss.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.socket = null;
  }

  private accept(ws: WebSocket): void {
    this.connections += 1;
    let helloSeen = false;
    ws.on('message', (raw) => {
      const msg = JSON.parse(raw.toString()) as DriverMessage;
      if (!helloSeen) {
        if (msg.type !== 'hello') return ws.close(4002, 'hello first');
        helloSeen = true;
        this.hellos.push(msg);
        this.socket?.terminate();
        this.socket = ws;
        ws.send(
          JSON.stringify({
            type: 'welcome',
            protocolVersion: PROTOCOL_VERSION,
            clientName: msg.client.name ?? 'chrome',
          }),
        );
        // Replay whatever is still unanswered, like the daemon's pending map does.
        for (const { request } of this.pending.values())
          ws.send(JSON.stringify({ type: 'request', request }));
        return;
      }
      if (msg.type === 'ping') return ws.send(JSON.stringify({ type: 'pong', ts: msg.ts }));
      if (msg.type === 'response') {
        this.received.push(msg);
        const entry = this.pending.get(msg.id);
        if (entry) {
          this.pending.delete(msg.id);
          entry.resolve(msg);
        }
        return;
      }
      this.pushes.push(msg);
    });
    ws.on('close', () => {
      if (this.socket === ws) this.socket = null;
    });
  }
}
