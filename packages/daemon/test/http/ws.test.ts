import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  BPROXY_VERSION,
  DEFAULT_EXTENSION_ID,
  PROTOCOL_VERSION,
  WS_CLOSE,
  wsAuthProtocol,
  type DaemonMessage,
} from '@bproxy/protocol';
import { createLogger } from '../../src/logs/logger';
import { FakeExtension, startDaemon, until, type TestDaemon } from '../harness';

let daemon: TestDaemon;
afterEach(() => daemon.close());

function rawSocket(
  d: TestDaemon,
): Promise<{ ws: WebSocket; messages: DaemonMessage[]; closed: Promise<number> }> {
  const ws = new WebSocket(`ws://127.0.0.1:${d.port}/ws`, ['bproxy.v1', wsAuthProtocol(d.extensionToken)], {
    headers: { origin: `chrome-extension://${DEFAULT_EXTENSION_ID}` },
  });
  const messages: DaemonMessage[] = [];
  ws.on('message', (m) => messages.push(JSON.parse(m.toString()) as DaemonMessage));
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    ws.on('open', () => resolve({ ws, messages, closed }));
    ws.on('error', reject);
  });
}

describe('GET /ws', () => {
  it('refuses a driver speaking another protocol version with a clear error', async () => {
    daemon = await startDaemon();
    const ext = new FakeExtension(daemon);
    await expect(ext.connect({ protocolVersion: 99 })).rejects.toThrow('PROTOCOL_MISMATCH');
  });

  it.each([
    ['0.0.1', 'the extension is the older one — update the extension'],
    [
      '9.0.0',
      'the daemon is the older one — restart the daemon: `bproxy service stop && bproxy service start`',
    ],
  ])(
    'refuses an extension of version %s that does not work with it, naming the older part and its fix',
    async (version, fix) => {
      daemon = await startDaemon();
      const hello = (instanceId: string, v: string) => ({
        type: 'hello',
        protocolVersion: PROTOCOL_VERSION,
        client: { instanceId, kind: 'extension', version: v },
      });
      const refused = await rawSocket(daemon);
      refused.ws.send(JSON.stringify(hello('skewtest01', version)));
      expect(await refused.closed).toBe(WS_CLOSE.protocolMismatch);
      expect(refused.messages).toEqual([
        {
          type: 'error',
          error: expect.objectContaining({
            code: 'VERSION_MISMATCH',
            message: expect.stringContaining(fix),
          }),
        },
      ]);
      // A compatible difference (another patch release) is welcomed.
      const [major = '0', minor = '0'] = BPROXY_VERSION.split('.');
      const ok = await rawSocket(daemon);
      ok.ws.send(JSON.stringify(hello('skewtest02', `${major}.${minor}.999`)));
      await until(() => ok.messages.some((m) => m.type === 'welcome'), 'a welcome');
      ok.ws.close();
    },
  );

  it('answers app-level pings with pongs', async () => {
    daemon = await startDaemon();
    const { ws, messages } = await rawSocket(daemon);
    ws.send(
      JSON.stringify({
        type: 'hello',
        protocolVersion: PROTOCOL_VERSION,
        client: { instanceId: 'pingtest01', kind: 'extension' },
      }),
    );
    ws.send(JSON.stringify({ type: 'ping', ts: 42 }));
    await until(() => messages.some((m) => m.type === 'pong'), 'a pong');
    expect(messages.find((m) => m.type === 'pong')).toEqual({ type: 'pong', ts: 42 });
    ws.close();
  });

  it('closes a socket whose first message is not hello', async () => {
    daemon = await startDaemon();
    const { ws, closed } = await rawSocket(daemon);
    ws.send(JSON.stringify({ type: 'ping', ts: 1 }));
    expect(await closed).toBe(4002);
  });

  it('keeps serving after malformed frames', async () => {
    daemon = await startDaemon();
    const ext = new FakeExtension(daemon);
    await ext.connect();
    ext.socket?.send('{not json');
    ext.send({ type: 'navigation', tabId: 'x' });
    const res = await daemon.call('tab.open', { url: 'http://x/' });
    expect(res.ok).toBe(true);
    await ext.drop();
  });

  it('answers INTERNAL_ERROR to a frame whose handling throws, and the connection serves the next', async () => {
    // A log destination that fails on one kind of line makes the message handler throw mid-frame, as
    // a bug or input it could not survive would.
    const lines: string[] = [];
    const { logger } = createLogger({
      level: 'debug',
      destination: {
        write: (line: string) => {
          if (line.includes('ws_bad_message')) throw new RangeError('Maximum call stack size exceeded');
          lines.push(line);
        },
      },
    });
    daemon = await startDaemon({ logger });
    const { ws, messages, closed } = await rawSocket(daemon);
    let code = 0;
    void closed.then((c) => (code = c));
    ws.send(
      JSON.stringify({
        type: 'hello',
        protocolVersion: PROTOCOL_VERSION,
        client: { instanceId: 'throwtest1', kind: 'extension' },
      }),
    );
    await until(() => messages.some((m) => m.type === 'welcome'), 'the welcome');
    ws.send(JSON.stringify({ type: 'navigation', tabId: 'not a tab' }));
    await until(() => messages.some((m) => m.type === 'error'), 'the error');
    const error = messages.find((m) => m.type === 'error');
    expect(error?.type === 'error' && error.error.code).toBe('INTERNAL_ERROR');
    ws.send(JSON.stringify({ type: 'ping', ts: 7 }));
    await until(() => messages.some((m) => m.type === 'pong' && m.ts === 7), 'the pong');
    expect(code).toBe(0);
    expect(lines.some((l) => l.includes('"ws_handler_failed"') && l.includes('RangeError'))).toBe(true);
    expect((await daemon.call('session.list')).ok).toBe(true);
    ws.close();
  });

  it('serves several clients at once and names them apart', async () => {
    daemon = await startDaemon();
    const a = new FakeExtension(daemon, 'instanceaaaa', 'chrome');
    const b = new FakeExtension(daemon, 'instancebbbb', 'chrome');
    await a.connect();
    await b.connect();
    const status = await daemon.call('debug.status');
    const clients = status.ok
      ? (status.data as { clients: { name: string; connected: boolean }[] }).clients
      : [];
    expect(clients.map((c) => c.name).sort()).toEqual(['chrome', 'chrome-2']);
    // Without --browser, the most recently connected extension gets the tab.
    await daemon.call('tab.open', { url: 'http://x/' });
    expect(b.received).toHaveLength(1);
    expect(a.received).toHaveLength(0);
    const named = await daemon.call('tab.open', { url: 'http://x/', browser: 'chrome' });
    expect(named.ok).toBe(true);
    expect(a.received).toHaveLength(1);
    const unknown = await daemon.call('tab.open', { url: 'http://x/', browser: 'safari' });
    expect(unknown.ok === false && unknown.error.code).toBe('BROWSER_NOT_FOUND');
    await a.drop();
    await b.drop();
  });

  it('terminates a half-open socket found by the heartbeat', async () => {
    daemon = await startDaemon({ heartbeatMs: 100 });
    const { ws, closed } = await rawSocket(daemon);
    ws.send(
      JSON.stringify({
        type: 'hello',
        protocolVersion: PROTOCOL_VERSION,
        client: { instanceId: 'halfopen01', kind: 'extension' },
      }),
    );
    // Stop answering transport pings, as a peer whose machine went away would.
    (ws as unknown as { _receiver: { removeAllListeners(e: string): void } })._receiver.removeAllListeners(
      'ping',
    );
    ws.pong = () => undefined;
    expect(await closed).toBe(1006);
  });

  it('lets a reconnect with the same instance take over from a stale connection', async () => {
    daemon = await startDaemon();
    const first = new FakeExtension(daemon, 'sameinstance1');
    await first.connect();
    const opened = await daemon.call('tab.open', { url: 'http://x/' });
    const session = opened.ok ? (opened.data as { session: string }).session : '';
    const old = first.socket;
    const oldClosed = new Promise<number>((resolve) => old?.on('close', (code) => resolve(code)));
    const second = new FakeExtension(daemon, 'sameinstance1');
    await second.connect();
    expect(await oldClosed).toBe(4006);
    const res = await daemon.call('text', {}, session);
    expect(res.ok).toBe(true);
    expect(second.received.at(-1)?.action).toBe('text');
    await second.drop();
  });
});
