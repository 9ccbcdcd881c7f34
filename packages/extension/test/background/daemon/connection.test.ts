import { PROTOCOL_VERSION, wsAuthProtocol } from '@bproxy/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Connection } from '../../../src/background/daemon/connection';
import type { ProofOutcome } from '../../../src/background/daemon/daemon-proof';
import { WorkerLog } from '../../../src/background/log';
import { PairingStore } from '../../../src/background/daemon/pairing-state';
import { MemoryStorage, socketRecorder } from '../../helpers/fakes';

const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz012345';

async function paired(storage = new MemoryStorage()): Promise<MemoryStorage> {
  await storage.set({
    pairing: { extensionToken: TOKEN, wsUrl: 'ws://127.0.0.1:9615/ws', nonce: 'n1', pairedAt: 1 },
  });
  return storage;
}

const proven = async (): Promise<ProofOutcome> => ({ ok: true });

function connection(
  storage: MemoryStorage,
  onRequest = vi.fn(),
  prove: (wsUrl: string, token: string) => Promise<ProofOutcome> = proven,
) {
  const sockets = socketRecorder();
  let n = 0;
  const onPush = vi.fn();
  const conn = new Connection({
    socketFactory: sockets.factory,
    prove,
    onPush,
    onProofFailed: vi.fn(),
    pairing: new PairingStore(storage, () => `instance${++n}-abcdefgh`),
    log: new WorkerLog(100, Date.now, false),
    random: () => 0.5,
    clientInfo: async () => ({ kind: 'extension' as const, name: 'chrome', version: '0.1.0' }),
    onRequest,
  });
  return { conn, sockets, onRequest, onPush };
}

const tick = (ms = 0) => vi.advanceTimersByTimeAsync(ms);

async function connectAndWelcome(c: ReturnType<typeof connection>) {
  c.conn.ensureConnected();
  await tick();
  const socket = c.sockets.last();
  socket.open();
  socket.receive({ type: 'welcome', protocolVersion: PROTOCOL_VERSION, clientName: 'chrome' });
  return socket;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('daemon connection', () => {
  it('stays idle without a pairing', async () => {
    const c = connection(new MemoryStorage());
    c.conn.ensureConnected();
    await tick();
    expect(c.sockets.sockets).toHaveLength(0);
    expect(c.conn.status().state).toBe('unpaired');
  });

  it('connects with the base64url token as subprotocol and says hello first, with a persisted instanceId', async () => {
    const storage = await paired();
    const c = connection(storage);
    const socket = await connectAndWelcome(c);
    expect(socket.url).toBe('ws://127.0.0.1:9615/ws');
    expect(socket.protocols).toEqual(['bproxy.v1', wsAuthProtocol(TOKEN)]);
    expect(socket.sent[0]).toEqual({
      type: 'hello',
      protocolVersion: PROTOCOL_VERSION,
      client: { instanceId: 'instance1-abcdefgh', kind: 'extension', name: 'chrome', version: '0.1.0' },
    });
    expect(c.conn.status().state).toBe('connected');

    // A later worker (a fresh Connection over the same storage) reuses the id.
    const again = connection(storage);
    const second = await connectAndWelcome(again);
    expect((second.sent[0] as { client: { instanceId: string } }).client.instanceId).toBe(
      'instance1-abcdefgh',
    );
  });

  it('pings every 20 s and drops a socket whose pong does not come within 10 s', async () => {
    const c = connection(await paired());
    const socket = await connectAndWelcome(c);
    await tick(20_000);
    const pings = socket.sentOfType('ping');
    expect(pings).toHaveLength(1);
    socket.receive({ type: 'pong', ts: pings[0]?.ts });
    await tick(20_000);
    expect(socket.sentOfType('ping')).toHaveLength(2);
    await tick(10_000);
    expect(socket.closed).not.toBeNull();
    expect(c.conn.status().lastError).toMatch(/stale/);
    // A stable connection was lost: the first retry is immediate (the next timer turn).
    await tick(1);
    expect(c.sockets.sockets).toHaveLength(2);
  });

  it('retries with growing, jittered delays while the daemon is down', async () => {
    const c = connection(await paired());
    c.conn.ensureConnected();
    await tick();
    const opened = () => c.sockets.sockets.length;
    c.sockets.last().serverClose(1006);
    await tick(0);
    expect(opened()).toBe(2); // first retry: immediate
    c.sockets.last().serverClose(1006);
    await tick(124);
    expect(opened()).toBe(2); // random 0.5 × 250 ms
    await tick(1);
    expect(opened()).toBe(3);
    c.sockets.last().serverClose(1006);
    await tick(249);
    expect(opened()).toBe(3); // 0.5 × 500 ms
    await tick(1);
    expect(opened()).toBe(4);
    expect(c.conn.status().state).toBe('connecting');
  });

  it('lets a wake-up cut a long backoff short', async () => {
    const c = connection(await paired());
    c.conn.ensureConnected();
    await tick();
    for (let i = 0; i < 8; i++) {
      c.sockets.last().serverClose(1006);
      await tick(10_000);
    }
    const before = c.sockets.sockets.length;
    c.sockets.last().serverClose(1006);
    await tick(1_000);
    c.conn.ensureConnected();
    await tick(0);
    expect(c.sockets.sockets.length).toBe(before + 1);
  });

  it('stops retrying after a protocol mismatch and says why', async () => {
    const c = connection(await paired());
    c.conn.ensureConnected();
    await tick();
    const socket = c.sockets.last();
    socket.open();
    socket.receive({
      type: 'error',
      error: { code: 'PROTOCOL_MISMATCH', category: 'transport', retry: false, message: 'daemon speaks 2' },
    });
    await tick(60_000);
    expect(c.sockets.sockets).toHaveLength(1);
    expect(c.conn.status()).toMatchObject({
      state: 'stopped',
      stopReason: expect.stringMatching(/protocol mismatch/),
    });
  });

  it("stops retrying after a version mismatch and keeps the daemon's words, which name the fix", async () => {
    const c = connection(await paired());
    c.conn.ensureConnected();
    await tick();
    const socket = c.sockets.last();
    socket.open();
    const message =
      'the daemon is version 0.0.9 and the extension 0.1.0: they do not work together, and the daemon is the older one — restart the daemon: `bproxy service stop && bproxy service start`';
    socket.receive({
      type: 'error',
      error: { code: 'VERSION_MISMATCH', category: 'internal', retry: false, message },
    });
    socket.serverClose(4001, 'protocol_mismatch');
    await tick(60_000);
    expect(c.sockets.sockets).toHaveLength(1);
    expect(c.conn.status()).toMatchObject({ state: 'stopped', stopReason: message });
  });

  it('stops retrying when the daemon revokes the token', async () => {
    const c = connection(await paired());
    const socket = await connectAndWelcome(c);
    socket.serverClose(4004, 'revoked');
    await tick(60_000);
    expect(c.sockets.sockets).toHaveLength(1);
    expect(c.conn.status().stopReason).toMatch(/pair again/);
  });

  it('sends pushes made while disconnected after the next welcome', async () => {
    const c = connection(await paired());
    c.conn.push({ type: 'tab_closed', tabId: 4 });
    const socket = await connectAndWelcome(c);
    expect(socket.sentOfType('tab_closed')).toEqual([{ type: 'tab_closed', tabId: 4 }]);
  });

  it('answers a request only on the socket it arrived on', async () => {
    let reply: (message: { type: 'response'; id: string; ok: true; data: unknown }) => void = () => {};
    const onRequest = vi.fn((_request: unknown, r: typeof reply) => {
      reply = r;
    });
    const c = connection(await paired(), onRequest);
    const socket = await connectAndWelcome(c);
    socket.receive({
      type: 'request',
      request: { id: 'q1', action: 'text', params: {}, deadline: Date.now() + 1_000 },
    });
    expect(onRequest).toHaveBeenCalledTimes(1);
    socket.serverClose(1006);
    reply({ type: 'response', id: 'q1', ok: true, data: {} });
    expect(socket.sentOfType('response')).toHaveLength(0);
  });

  it('asks for the proof with the paired URL and token before it opens any socket', async () => {
    let socketsAtProof = -1;
    const prove = vi.fn(async (): Promise<ProofOutcome> => {
      socketsAtProof = c.sockets.sockets.length;
      return { ok: true };
    });
    const c = connection(await paired(), vi.fn(), prove);
    c.conn.ensureConnected();
    await tick();
    expect(prove).toHaveBeenCalledWith('ws://127.0.0.1:9615/ws', TOKEN);
    expect(socketsAtProof).toBe(0);
    expect(c.sockets.sockets).toHaveLength(1);
  });

  it('opens no socket for a server that cannot prove the pairing, says so, and keeps retrying quietly', async () => {
    const message = 'something else is listening on port 9615: it could not prove it is the bproxy daemon';
    const prove = vi.fn(async (): Promise<ProofOutcome> => ({ ok: false, kind: 'unproven', message }));
    const onRequest = vi.fn();
    const c = connection(await paired(), onRequest, prove);
    c.conn.ensureConnected();
    await tick();
    expect(c.sockets.sockets).toHaveLength(0);
    expect(c.conn.status()).toMatchObject({ state: 'waiting', lastError: message });
    await tick(30_000);
    expect(prove.mock.calls.length).toBeGreaterThan(3);
    expect(c.sockets.sockets).toHaveLength(0);
    expect(onRequest).not.toHaveBeenCalled();

    // The real daemon is back: the next attempt proves and connects with the stored pairing.
    prove.mockImplementation(proven);
    await tick(10_000);
    expect(c.sockets.sockets).toHaveLength(1);
  });

  it('drops a proof that arrives after the pairing changed', async () => {
    let release: (outcome: ProofOutcome) => void = () => {};
    const prove = vi.fn(
      () =>
        new Promise<ProofOutcome>((resolve) => {
          release = resolve;
        }),
    );
    const storage = await paired();
    const c = connection(storage, vi.fn(), prove);
    c.conn.ensureConnected();
    await tick();
    const first = release;
    await storage.remove('pairing');
    c.conn.restart();
    await tick();
    first({ ok: true });
    await tick();
    expect(c.sockets.sockets).toHaveLength(0);
    expect(c.conn.status().state).toBe('unpaired');
  });

  it('carries a user request to the daemon and resolves with its answer', async () => {
    const c = connection(await paired());
    const socket = await connectAndWelcome(c);
    const answer = c.conn.userRequest({ kind: 'share_tab', tabId: 9, url: 'https://a.test/', title: 'A' });
    const sent = socket.sentOfType('user_request')[0] as { requestId: string; request: unknown };
    expect(sent.request).toEqual({ kind: 'share_tab', tabId: 9, url: 'https://a.test/', title: 'A' });
    const result = { kind: 'share_tab', shared: { session: 'abcdef', tab: 't1', created: true } };
    socket.receive({ type: 'user_answer', requestId: sent.requestId, ok: true, result });
    expect(await answer).toEqual({ ok: true, result });
  });

  it('fails a user request at once while disconnected, and when the connection drops before the answer', async () => {
    const c = connection(await paired());
    expect(await c.conn.userRequest({ kind: 'share_tab', tabId: 1, url: '', title: '' })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not connected/),
    });
    const socket = await connectAndWelcome(c);
    const pending = c.conn.userRequest({ kind: 'share_tab', tabId: 1, url: '', title: '' });
    socket.serverClose(1006);
    expect(await pending).toMatchObject({ ok: false, reason: expect.stringMatching(/lost/) });
  });

  it('hands what the daemon pushes to the worker', async () => {
    const c = connection(await paired());
    const socket = await connectAndWelcome(c);
    socket.receive({ type: 'tab_released', tabId: 12 });
    socket.receive({ type: 'sessions', sessions: [] });
    expect(c.onPush.mock.calls).toEqual([
      [{ type: 'tab_released', tabId: 12 }],
      [{ type: 'sessions', sessions: [] }],
    ]);
  });
});
