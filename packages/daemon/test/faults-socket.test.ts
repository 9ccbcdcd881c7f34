/**
 * Socket-level faults between the daemon and an extension, over real WebSockets: the socket lost
 * before delivery or after execution, duplicate and late answers, a second connection taking over
 * with requests in flight, a half-open peer found by the heartbeat, a slow consumer, and an event
 * loop stall. After every case: one answer per request, nothing executed twice, nothing run after
 * the agent saw TIMEOUT, and the pending map, queues, sockets and timers back to idle.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startDaemon, until, type TestDaemon } from './harness';
import {
  DriverLedger,
  FaultyExtension,
  command,
  expectIdle,
  expectOneAnswer,
  openSession,
  timerBaseline,
} from './faults-helpers';

let daemon: TestDaemon | null = null;
const extensions: FaultyExtension[] = [];

afterEach(async () => {
  for (const e of extensions.splice(0)) e.kill();
  await daemon?.close();
  daemon = null;
});

async function setup(
  opts: Parameters<typeof startDaemon>[0] = {},
): Promise<{ d: TestDaemon; ext: FaultyExtension; session: string; timers: number }> {
  const d = await startDaemon(opts);
  daemon = d;
  const timers = timerBaseline();
  const ext = new FaultyExtension(d);
  extensions.push(ext);
  await ext.connect();
  const session = await openSession(d);
  return { d, ext, session, timers };
}

function another(d: TestDaemon, ledger: DriverLedger, instanceId: string): FaultyExtension {
  const ext = new FaultyExtension(d, ledger, instanceId);
  extensions.push(ext);
  return ext;
}

describe('socket faults', () => {
  it('holds a request sent while the socket is down and delivers it once on reconnect', async () => {
    const { d, ext, session, timers } = await setup();
    await ext.drop();
    await until(() => d.server.deps.clients.connected().length === 0, 'the daemon to see the drop');
    const answer = command(d, 'text', {}, { session });
    await until(() => d.server.deps.pending.awaitingAnswer === 1, 'the request to wait for the browser');
    const again = another(d, ext.ledger, ext.instanceId);
    await again.connect();
    const res = await answer;
    expect(res.ok).toBe(true);
    expect(ext.ledger.executedTwice()).toEqual([]);
    expect(again.received.filter((r) => r.id === res.id)).toHaveLength(1);
    await expectIdle(d, { drivers: 1, timers: timers + 0 });
  });

  it('answers from the driver table when the socket dies after execution, before the answer', async () => {
    const { d, ext, session, timers } = await setup();
    ext.fault = (req) => (req.action === 'click' ? 'drop-after' : 'answer');
    const answer = command(d, 'click', { target: { selector: '#a' } }, { session, id: 'click-once-1' });
    await until(() => ext.ledger.executed('click-once-1'), 'the click to execute');
    await until(() => d.server.deps.clients.connected().length === 0, 'the daemon to see the drop');
    const again = another(d, ext.ledger, ext.instanceId);
    await again.connect();
    const res = await answer;
    expect(res.ok).toBe(true);
    expect(ext.ledger.executions.get('click-once-1')).toBe(1);
    // The replay reached the new connection, which answered it from the table.
    expect(again.received.map((r) => r.id)).toContain('click-once-1');
    const retry = await command(d, 'click', { target: { selector: '#a' } }, { session, id: 'click-once-1' });
    expect(retry).toEqual(res);
    expect(ext.ledger.executions.get('click-once-1')).toBe(1);
    await expectIdle(d, { drivers: 1, timers });
  });

  it('settles a request once when the driver answers it twice', async () => {
    const { d, ext, session, timers } = await setup();
    ext.fault = () => 'duplicate';
    const first = await command(d, 'text', {}, { session, id: 'dup-1' });
    const second = await command(d, 'text', {}, { session, id: 'dup-2' });
    expect(first.ok && second.ok).toBe(true);
    expect((first as { id: string }).id).toBe('dup-1');
    await until(
      () => d.logLines.filter((l) => l.includes('"late_answer"')).length >= 2,
      'the extra answers to be dropped',
    );
    await expectIdle(d, { drivers: 1, timers });
  });

  it('drops an answer that arrives after the agent was told TIMEOUT, and never re-sends that id', async () => {
    const { d, ext, session, timers } = await setup();
    ext.fault = (req) => (req.id === 'late-1' ? 'hold' : 'answer');
    const res = await command(d, 'text', {}, { session, id: 'late-1', deadlineMs: 300 });
    expect(res.ok ? 'ok' : res.error.code).toBe('TIMEOUT');
    ext.release('late-1');
    await until(() => d.logLines.some((l) => l.includes('"late_answer"')), 'the late answer to be dropped');
    // A retry of the same id gets the recorded TIMEOUT, and nothing is forwarded again.
    expectOneAnswer([res, await command(d, 'text', {}, { session, id: 'late-1', deadlineMs: 300 })]);
    expect(ext.received.filter((r) => r.id === 'late-1')).toHaveLength(1);
    await expectIdle(d, { drivers: 1, timers });
  });

  it('never delivers a request that timed out while the driver was away', async () => {
    const { d, ext, session, timers } = await setup();
    await ext.drop();
    await until(() => d.server.deps.clients.connected().length === 0, 'the daemon to see the drop');
    const res = await command(
      d,
      'click',
      { target: { selector: '#a' } },
      { session, id: 'gone-1', deadlineMs: 250 },
    );
    expect(res.ok ? 'ok' : res.error.code).toBe('TIMEOUT');
    const again = another(d, ext.ledger, ext.instanceId);
    await again.connect();
    // Replay happens during the handshake: a request answered after it proves the replay is over.
    expect((await command(d, 'text', {}, { session })).ok).toBe(true);
    expect(again.received.map((r) => r.id)).not.toContain('gone-1');
    expect(ext.ledger.executed('gone-1')).toBe(false);
    await expectIdle(d, { drivers: 1, timers });
  });

  it('hands in-flight requests to a second connection of the same browser without running them twice', async () => {
    const { d, ext, session, timers } = await setup();
    ext.fault = (req) => (req.id === 'takeover-1' ? 'hold' : 'answer');
    const answer = command(d, 'click', { target: { selector: '#a' } }, { session, id: 'takeover-1' });
    await until(() => ext.held('takeover-1'), 'the first connection to start the click');
    const closedCode = new Promise<number>((resolve) => ext.socket?.once('close', (c) => resolve(c)));
    const second = another(d, ext.ledger, ext.instanceId);
    await second.connect();
    expect(await closedCode).toBe(4006);
    // The replay on the new connection waits for the first execution and answers with its result.
    await until(() => second.received.some((r) => r.id === 'takeover-1'), 'the replay');
    ext.release('takeover-1');
    const res = await answer;
    expect(res.ok).toBe(true);
    expect(ext.ledger.executions.get('takeover-1')).toBe(1);
    await expectIdle(d, { drivers: 1, timers });
  });

  it('keeps a request whose socket dropped before it was executed and runs it once on reconnect', async () => {
    const { d, ext, session, timers } = await setup();
    let dropped = false;
    ext.fault = () => {
      if (dropped) return 'answer';
      dropped = true;
      return 'drop-before';
    };
    const answer = command(d, 'fill', { target: { selector: '#b' }, value: 'x' }, { session, id: 'fill-1' });
    await until(() => d.server.deps.clients.connected().length === 0, 'the drop');
    expect(ext.ledger.executed('fill-1')).toBe(false);
    const again = another(d, ext.ledger, ext.instanceId);
    again.fault = () => 'answer';
    await again.connect();
    expect((await answer).ok).toBe(true);
    expect(ext.ledger.executions.get('fill-1')).toBe(1);
    await expectIdle(d, { drivers: 1, timers });
  });
});

describe('dead and slow peers', () => {
  it('terminates a half-open socket found by the heartbeat and fails its requests after the grace', async () => {
    const { d, ext, session, timers } = await setup({ heartbeatMs: 100, reconnectGraceMs: 300 });
    ext.fault = () => 'silent';
    const answer = command(d, 'text', {}, { session, id: 'half-open-1' });
    await until(() => ext.received.length > 0 || d.server.deps.pending.awaitingAnswer === 1, 'the send');
    ext.freeze();
    const res = await answer;
    expect(res.ok ? 'ok' : res.error.code).toBe('BROWSER_DISCONNECTED');
    expect(d.logLines.some((l) => l.includes('"ws_disconnect"') && l.includes('ws_close_1006'))).toBe(true);
    ext.kill();
    await expectIdle(d, { drivers: 0, timers });
  });

  it('bounds what a consumer that stops reading can hold, then cuts it off at the heartbeat', async () => {
    // A heartbeat long enough that a hundred requests reach the pending map first on a loaded machine.
    const { d, ext, timers } = await setup({ heartbeatMs: 1_500, reconnectGraceMs: 300 });
    ext.fault = () => 'silent';
    ext.freeze();
    const executedBefore = ext.ledger.executions.size;
    // tab.open is not serialized per tab, so large requests pile up in flight at once.
    const url = `http://x/${'a'.repeat(8_000)}`;
    const answers = Array.from({ length: 100 }, (_, i) =>
      command(d, 'tab.open', { url }, { id: `slow-${i}`, deadlineMs: 15_000 }),
    );
    await until(() => d.server.deps.pending.inFlight === 100, 'the pending map to fill', 10_000);
    // Admission is bounded: the next request is refused at once, not queued behind a dead peer.
    const refused = await command(d, 'tab.open', { url }, { id: 'slow-over' });
    expect(refused.ok ? 'ok' : refused.error.code).toBe('OVERLOADED');
    const results = await Promise.all(answers);
    const codes = new Set(results.map((r) => (r.ok ? 'ok' : r.error.code)));
    expect([...codes]).toEqual(['BROWSER_DISCONNECTED']);
    expect(ext.ledger.executions.size).toBe(executedBefore);
    ext.kill();
    await expectIdle(d, { drivers: 0, timers });
    // The daemon goes on serving the next browser.
    const fresh = another(d, new DriverLedger(), 'freshbrowser1');
    await fresh.connect();
    expect((await command(d, 'tab.open', { url: 'http://x/' })).ok).toBe(true);
  }, 30_000);

  it('keeps a healthy client through a two-second event loop stall', async () => {
    const { d, ext, session, timers } = await setup({ heartbeatMs: 500 });
    let stalled = false;
    ext.onPing = () => {
      if (stalled) return;
      stalled = true;
      // Right after the daemon's ping: its pong is written but not yet read when the loop freezes.
      const end = performance.now() + 2_000;
      while (performance.now() < end) {
        // busy: the whole process, daemon included, is stalled
      }
    };
    ext.fault = (req) => (req.id === 'stall-1' ? 'hold' : 'answer');
    const answer = command(d, 'text', {}, { session, id: 'stall-1', deadlineMs: 10_000 });
    await until(() => ext.held('stall-1'), 'the request to reach the extension');
    await until(() => stalled, 'the stall', 5_000);
    // Two more heartbeat rounds after the stall.
    const pings = { n: 0 };
    ext.onPing = () => pings.n++;
    await until(() => pings.n >= 2, 'two heartbeats after the stall', 5_000);
    ext.release('stall-1');
    expect((await answer).ok).toBe(true);
    expect(d.logLines.some((l) => l.includes('"ws_disconnect"'))).toBe(false);
    await expectIdle(d, { drivers: 1, timers });
  }, 20_000);
});
