/**
 * Fault-injection helpers for the daemon tests: an extension over a real WebSocket that misbehaves on
 * command (drops its socket before or after executing, answers twice or late, goes silent or stops
 * reading), an execution ledger shared by every connection of one browser profile (so "executed
 * twice" is observable across a takeover), a raw HTTP client that leaves no keep-alive socket behind,
 * and the idle-state check run after every case.
 */
import { request as httpRequest } from 'node:http';
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { expect } from 'vitest';
import {
  DEFAULT_EXTENSION_ID,
  PROTOCOL_VERSION,
  wsAuthProtocol,
  type BproxyForwardedRequest,
  type BproxyResponse,
  type DaemonMessage,
} from '@bproxy/protocol';
import { FakeExtension, nextId, until, type TestDaemon } from './harness';

type Answer = { ok: true; data: unknown } | { ok: false; error: unknown };

/**
 * What the extension does with the first delivery of a request id (replays are always answered from
 * the ledger, like the real executed-request table):
 * - answer: execute and answer;
 * - drop-before: close the socket without executing;
 * - drop-after: execute, then close the socket before answering;
 * - duplicate: execute and answer twice;
 * - hold: execute but answer only when `release(id)` is called (late answers);
 * - silent: never execute, never answer.
 */
export type Fault = 'answer' | 'drop-before' | 'drop-after' | 'duplicate' | 'hold' | 'silent';

/** Executions and answers of one browser profile, shared by all its connections. */
export class DriverLedger {
  readonly executions = new Map<string, number>();
  readonly answers = new Map<string, Promise<Answer>>();

  executedTwice(): string[] {
    return [...this.executions].filter(([, n]) => n > 1).map(([id]) => id);
  }

  executed(id: string): boolean {
    return this.executions.has(id);
  }
}

export class FaultyExtension {
  socket: WebSocket | null = null;
  readonly received: BproxyForwardedRequest[] = [];
  fault: (req: BproxyForwardedRequest) => Fault = () => 'answer';
  /** Called synchronously for every 'ping' frame the daemon sends (after the automatic pong). */
  onPing: () => void = () => undefined;
  private readonly holds = new Map<string, () => void>();
  private readonly answers: FakeExtension;

  constructor(
    private readonly daemon: TestDaemon,
    readonly ledger = new DriverLedger(),
    readonly instanceId = `faulty${randomBytes(6).toString('hex')}`,
  ) {
    this.answers = new FakeExtension(daemon);
  }

  /** Connects, says hello and resolves on welcome; `closed` resolves with the close code. */
  async connect(): Promise<{ closed: Promise<number> }> {
    const socket = new WebSocket(
      `ws://127.0.0.1:${this.daemon.port}/ws`,
      ['bproxy.v1', wsAuthProtocol(this.daemon.extensionToken)],
      { headers: { origin: `chrome-extension://${DEFAULT_EXTENSION_ID}` } },
    );
    this.socket = socket;
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    const welcomed = new Promise<void>((resolve, reject) => {
      socket.on('message', (raw) => {
        const msg = JSON.parse(raw.toString()) as DaemonMessage;
        if (msg.type === 'welcome') resolve();
        else if (msg.type === 'error') reject(new Error(msg.error.code));
        else if (msg.type === 'request') void this.onRequest(socket, msg.request);
      });
      socket.on('ping', () => this.onPing());
      socket.on('error', () => undefined);
      void closed.then(() => reject(new Error('closed before welcome')));
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    socket.send(
      JSON.stringify({
        type: 'hello',
        protocolVersion: PROTOCOL_VERSION,
        client: { instanceId: this.instanceId, kind: 'extension', name: 'faulty' },
      }),
    );
    await welcomed;
    return { closed };
  }

  /** Closes the socket and waits for the close handshake. */
  async drop(): Promise<void> {
    const s = this.socket;
    this.socket = null;
    if (!s || s.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      s.once('close', () => resolve());
      s.close();
    });
  }

  /** Kills the socket without a close handshake (a crashed peer). */
  kill(): void {
    this.socket?.terminate();
    this.socket = null;
  }

  /** Stops reading the socket: no pongs, no requests — a half-open or stuck peer. */
  freeze(): void {
    this.socket?.pause();
  }

  release(id: string): void {
    this.holds.get(id)?.();
    this.holds.delete(id);
  }

  held(id: string): boolean {
    return this.holds.has(id);
  }

  sendRaw(data: string): void {
    this.socket?.send(data);
  }

  private execute(req: BproxyForwardedRequest, gate?: Promise<void>): Promise<Answer> {
    this.ledger.executions.set(req.id, (this.ledger.executions.get(req.id) ?? 0) + 1);
    const answer = (async () => {
      if (gate) await gate;
      const a = this.answers.defaultAnswer(req);
      return a === 'drop' ? { ok: true as const, data: null } : a;
    })();
    this.ledger.answers.set(req.id, answer);
    return answer;
  }

  private reply(socket: WebSocket, id: string, answer: Answer): void {
    if (socket.readyState === WebSocket.OPEN)
      socket.send(JSON.stringify({ type: 'response', id, ...answer }));
  }

  private async onRequest(socket: WebSocket, req: BproxyForwardedRequest): Promise<void> {
    this.received.push(req);
    const known = this.ledger.answers.get(req.id);
    if (known) {
      // A replay: answered from the table once the first execution finished, never run again.
      this.reply(socket, req.id, await known);
      return;
    }
    if (req.deadline <= Date.now()) {
      // Like the real drivers: what is past its deadline is refused, not run late.
      this.reply(socket, req.id, {
        ok: false,
        error: { code: 'TIMEOUT', category: 'transport', retry: true, message: 'past deadline' },
      });
      return;
    }
    const fault = this.fault(req);
    switch (fault) {
      case 'silent':
        return;
      case 'drop-before':
        socket.close();
        return;
      case 'drop-after': {
        await this.execute(req);
        socket.close();
        return;
      }
      case 'duplicate': {
        const answer = await this.execute(req);
        this.reply(socket, req.id, answer);
        this.reply(socket, req.id, answer);
        return;
      }
      case 'hold': {
        const gate = new Promise<void>((resolve) => this.holds.set(req.id, resolve));
        const answer = await this.execute(req, gate);
        this.reply(socket, req.id, answer);
        return;
      }
      case 'answer':
        this.reply(socket, req.id, await this.execute(req));
        return;
    }
  }
}

/** POST / over a fresh connection that is closed after the answer (no keep-alive socket lingers). */
export function post(daemon: TestDaemon, body: unknown): Promise<{ status: number; body: BproxyResponse }> {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: daemon.port,
        method: 'POST',
        path: '/',
        agent: false,
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${daemon.token}`,
          connection: 'close',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve({
              status: res.statusCode ?? 0,
              body: JSON.parse(Buffer.concat(chunks).toString()) as BproxyResponse,
            });
          } catch (err) {
            reject(err instanceof Error ? err : new Error(String(err)));
          }
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Sends one command and resolves with its answer envelope. */
export async function command(
  daemon: TestDaemon,
  action: string,
  params: Record<string, unknown> = {},
  opts: { session?: string; id?: string; deadlineMs?: number; now?: () => number } = {},
): Promise<BproxyResponse> {
  const body: Record<string, unknown> = {
    id: opts.id ?? nextId(),
    action,
    params,
    // The agent reads the same wall clock as the daemon: a test that steps it passes its clock here.
    deadline: (opts.now ?? Date.now)() + (opts.deadlineMs ?? 5_000),
  };
  if (opts.session !== undefined) body.session = opts.session;
  return (await post(daemon, body)).body;
}

/** Opens a tab through the connected extension and returns the session that owns it. */
export async function openSession(daemon: TestDaemon): Promise<string> {
  const res = await command(daemon, 'tab.open', { url: 'http://x/' });
  if (!res.ok) throw new Error(`tab.open failed: ${res.error.code}`);
  return (res.data as { session: string }).session;
}

function countResources(kind: string): number {
  return process.getActiveResourcesInfo().filter((r) => r === kind).length;
}

function serverConnections(daemon: TestDaemon): Promise<number> {
  return new Promise((resolve) => daemon.server.app.server.getConnections((_e, n) => resolve(n)));
}

/** A snapshot of the timers keeping the loop alive, taken while the daemon is idle. */
export function timerBaseline(): number {
  return countResources('Timeout');
}

/**
 * The idle state after a case: nothing admitted, nothing awaiting an answer, no tab queue, exactly
 * `drivers` driver connections and no other server socket, and no more live timers than `baseline`.
 */
export async function expectIdle(
  daemon: TestDaemon,
  opts: { drivers: number; timers?: number },
): Promise<void> {
  const { deps } = daemon.server;
  await until(
    () => deps.pending.inFlight === 0 && deps.pending.awaitingAnswer === 0 && deps.queues.size === 0,
    'the pending map and tab queues to drain',
  );
  await until(() => deps.drivers.count === opts.drivers, `${opts.drivers} driver connection(s)`);
  let sockets = -1;
  const deadline = Date.now() + 3_000;
  while (Date.now() < deadline) {
    sockets = await serverConnections(daemon);
    if (sockets === opts.drivers) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  expect(sockets, 'server sockets besides driver connections').toBe(opts.drivers);
  if (opts.timers !== undefined) {
    const baseline = opts.timers;
    await until(() => timerBaseline() <= baseline, `live timers to return to ${baseline}`);
  }
}

/** Every answer for one id is the same envelope (retries see the first answer). */
export function expectOneAnswer(answers: BproxyResponse[]): void {
  expect(answers.length).toBeGreaterThan(0);
  for (const a of answers) expect(a).toEqual(answers[0]);
}
