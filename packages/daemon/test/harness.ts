/**
 * Test harness: a real daemon (buildServer on a real listener, port 0) and a scripted fake extension
 * over a real WebSocket. The fake is the far side of the daemon tests only; e2e uses the real one.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import {
  DEFAULT_EXTENSION_ID,
  PROTOCOL_VERSION,
  wsAuthProtocol,
  type BproxyForwardedRequest,
  type BproxyResponse,
  type DaemonMessage,
  type DriverMessage,
} from '@bproxy/protocol';
import { buildServer, type DaemonServer } from '../src/http/server';
import { createLogger } from '../src/logs/logger';
import type { ServerOptions } from '../src/server-options';

export interface TestDaemon {
  server: DaemonServer;
  port: number;
  token: string;
  extensionToken: string;
  logLines: string[];
  post(body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: BproxyResponse }>;
  call(
    action: string,
    params?: Record<string, unknown>,
    session?: string,
    extra?: { id?: string; deadlineMs?: number },
  ): Promise<BproxyResponse>;
  close(): Promise<void>;
}

let seq = 0;
export const nextId = () => `t${Date.now().toString(36)}${(++seq).toString(36)}`;

export async function startDaemon(overrides: Partial<ServerOptions> = {}): Promise<TestDaemon> {
  const logLines: string[] = [];
  const { logger } = createLogger({
    level: 'debug',
    destination: { write: (l: string) => logLines.push(l) },
  });
  const token = randomBytes(32).toString('hex');
  let extensionToken: string | null = randomBytes(32).toString('base64url');
  const server = await buildServer({
    port: 0,
    daemonToken: token,
    extensionIds: [DEFAULT_EXTENSION_ID],
    extensionTokens: {
      get: () => extensionToken,
      set: async (t) => {
        extensionToken = t;
      },
    },
    logger,
    tmpRoot: mkdtempSync(join(tmpdir(), 'bproxy-test-')),
    pacingOverride: 'fast',
    reconnectGraceMs: 2_000,
    ...overrides,
  });
  const port = await server.listen();
  const post = async (body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as BproxyResponse };
  };
  return {
    server,
    port,
    token,
    get extensionToken() {
      return extensionToken ?? '';
    },
    logLines,
    post,
    async call(action, params = {}, session, extra = {}) {
      const body: Record<string, unknown> = {
        id: extra.id ?? nextId(),
        action,
        params,
        deadline: Date.now() + (extra.deadlineMs ?? 5_000),
      };
      if (session !== undefined) body.session = session;
      return (await post(body)).body;
    },
    close: () => server.shutdown(500),
  };
}

export type Behaviour = (req: BproxyForwardedRequest) => unknown | Promise<unknown>;
type Answer = { ok: true; data: unknown } | { ok: false; error: unknown } | 'drop';

/**
 * A scripted extension: answers forwarded requests with `behaviour`, keeps a dedupe table like the real
 * one (same id → recorded answer, never executed twice), and can drop and reconnect its socket.
 */
export class FakeExtension {
  socket: WebSocket | null = null;
  readonly executed: string[] = [];
  readonly received: BproxyForwardedRequest[] = [];
  /** Every other daemon message after the welcome (user answers, releases, errors). */
  readonly messages: DaemonMessage[] = [];
  private readonly done = new Map<string, Answer>();
  private nextTabId = 100;
  behaviour: (req: BproxyForwardedRequest) => Promise<Answer> | Answer;

  constructor(
    private readonly daemon: TestDaemon,
    readonly instanceId = `fake${randomBytes(6).toString('hex')}`,
    readonly name = 'fake',
  ) {
    this.behaviour = (req) => this.defaultAnswer(req);
  }

  defaultAnswer(req: BproxyForwardedRequest): Answer {
    switch (req.action) {
      case 'tab.open':
        return { ok: true, data: { tabId: this.nextTabId++, url: String(req.params.url), title: 'Page' } };
      case 'tab.close':
        return { ok: true, data: { closed: true } };
      case 'tab.pin':
      case 'tab.unpin':
        return {
          ok: true,
          data: {
            tabId: req.target?.tabId ?? 0,
            url: 'http://x/',
            title: 'Page',
            pinned: req.action === 'tab.pin',
          },
        };
      case 'elements':
        return {
          ok: true,
          data: {
            url: 'http://x/',
            elements: [
              { ref: 'r1', selector: '#a', role: 'button', name: 'A', tag: 'button' },
              { ref: 'r2', selector: '#b', role: 'textbox', name: 'B', tag: 'input' },
            ],
            total: 2,
            truncated: false,
          },
        };
      case 'links':
        return {
          ok: true,
          data: {
            url: 'http://x/',
            links: [{ ref: 'r3', selector: 'a', text: 'Home', href: 'http://x/home' }],
            total: 1,
            truncated: false,
          },
        };
      case 'text':
        return {
          ok: true,
          data: { url: 'http://x/', title: 'Page', text: 'hello', totalChars: 5, truncated: false },
        };
      case 'inspect':
        // The daemon's own read before a click or Enter (approvals) gets a verdict: nothing sensitive.
        return {
          ok: true,
          data: {
            tag: 'button',
            role: 'button',
            name: 'A',
            text: 'A',
            attributes: {},
            box: { x: 0, y: 0, width: 10, height: 10 },
            visible: true,
            enabled: true,
            inViewport: true,
            ...(req.params.approval === undefined ? {} : { sensitive: { name: 'A', fields: [] } }),
          },
        };
      case 'click':
      case 'fill':
      case 'hover':
        return { ok: true, data: { url: 'http://x/', title: 'Page', navigated: false } };
      case 'navigate':
        return { ok: true, data: { url: String(req.params.url), title: 'Page' } };
      case 'scroll':
        return { ok: true, data: { x: 0, y: 120, atTop: false, atBottom: false } };
      case 'select':
        return { ok: true, data: { url: 'http://x/', title: 'Page', navigated: false, selected: ['a'] } };
      case 'wait':
        return { ok: true, data: { url: 'http://x/', title: 'Page', waitedMs: 1 } };
      default:
        return { ok: true, data: { url: 'http://x/', title: 'Page' } };
    }
  }

  async connect(
    opts: { protocolVersion?: number; token?: string; run?: string; userAgent?: string } = {},
  ): Promise<void> {
    const socket = new WebSocket(
      `ws://127.0.0.1:${this.daemon.port}/ws`,
      ['bproxy.v1', wsAuthProtocol(opts.token ?? this.daemon.extensionToken)],
      {
        headers: { origin: `chrome-extension://${DEFAULT_EXTENSION_ID}` },
      },
    );
    this.socket = socket;
    const welcomed = new Promise<void>((resolve, reject) => {
      socket.on('message', (raw) => {
        const msg = JSON.parse(raw.toString()) as DaemonMessage;
        if (msg.type === 'welcome') resolve();
        else if (msg.type === 'request') void this.onRequest(socket, msg.request);
        else {
          if (msg.type === 'error') reject(new Error(msg.error.code));
          this.messages.push(msg);
        }
      });
      socket.on('error', reject);
      socket.on('close', () => reject(new Error('closed')));
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    this.send({
      type: 'hello',
      protocolVersion: opts.protocolVersion ?? PROTOCOL_VERSION,
      client: {
        instanceId: this.instanceId,
        kind: 'extension',
        name: this.name,
        ...(opts.run === undefined ? {} : { run: opts.run }),
        ...(opts.userAgent === undefined ? {} : { userAgent: opts.userAgent }),
      },
    });
    await welcomed;
  }

  send(msg: DriverMessage | Record<string, unknown>): void {
    this.socket?.send(JSON.stringify(msg));
  }

  /** Closes the socket and waits until the daemon has seen it go. */
  async drop(): Promise<void> {
    const s = this.socket;
    if (!s) return;
    this.socket = null;
    if (s.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      s.once('close', () => resolve());
      s.close();
    });
  }

  private async onRequest(socket: WebSocket, req: BproxyForwardedRequest): Promise<void> {
    this.received.push(req);
    let answer = this.done.get(req.id);
    if (!answer) {
      this.executed.push(req.id);
      answer = await this.behaviour(req);
      this.done.set(req.id, answer);
    }
    if (answer === 'drop') return;
    if (socket.readyState !== WebSocket.OPEN) return;
    socket.send(JSON.stringify({ type: 'response', id: req.id, ...answer }));
  }
}

/** Waits for a condition driven by events elsewhere, polling briefly; fails with `what` after `ms`. */
export async function until(cond: () => boolean, what: string, ms = 3_000): Promise<void> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The data of a successful answer; fails the test with the error otherwise. */
export function okData<T = Record<string, unknown>>(res: BproxyResponse): T {
  if (!res.ok) throw new Error(`expected ok, got ${res.error.code}: ${res.error.message}`);
  return res.data as T;
}

/** A daemon with a connected fake extension and one open tab, bound to a fresh session. */
export async function startDaemonWithTab(
  overrides: Partial<ServerOptions> = {},
): Promise<{ daemon: TestDaemon; ext: FakeExtension; session: string; close(): Promise<void> }> {
  const daemon = await startDaemon(overrides);
  const ext = new FakeExtension(daemon);
  await ext.connect();
  const { session } = okData<{ session: string }>(await daemon.call('tab.open', { url: 'http://x/' }));
  return {
    daemon,
    ext,
    session,
    async close() {
      await ext.drop();
      await daemon.close();
    },
  };
}
