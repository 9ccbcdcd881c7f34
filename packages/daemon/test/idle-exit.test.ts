/**
 * An implicitly started daemon stops once no agent has used it for the idle-exit period. The rule on
 * a faked clock (what counts as activity, a request in flight holding the period however long it
 * runs), then wired into the server: agent requests count, a driver's traffic does not, debug.status
 * shows the time left, and onIdle comes once.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdleExit } from '../src/idle-exit';
import { FakeExtension, okData, startDaemon, until, type TestDaemon } from './harness';

const fakeClock = { now: () => Date.now(), monotonic: () => Date.now() };

describe('the idle-exit rule', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('calls onIdle once, when the period has passed without a request', () => {
    const idle: number[] = [];
    const exit = new IdleExit(fakeClock, 60_000, (ms) => idle.push(ms));
    vi.advanceTimersByTime(59_999);
    expect(idle).toEqual([]);
    expect(exit.exitInMs()).toBe(1);
    vi.advanceTimersByTime(1);
    expect(idle).toEqual([60_000]);
    vi.advanceTimersByTime(600_000);
    expect(idle).toHaveLength(1);
  });

  it('starts the period over with every request', () => {
    const idle: number[] = [];
    const exit = new IdleExit(fakeClock, 60_000, (ms) => idle.push(ms));
    vi.advanceTimersByTime(50_000);
    exit.touch();
    vi.advanceTimersByTime(50_000);
    expect(idle).toEqual([]);
    expect(exit.exitInMs()).toBe(10_000);
    vi.advanceTimersByTime(10_000);
    expect(idle).toEqual([60_000]);
  });

  it('holds the period while a request is in flight, however long, and counts from its end', async () => {
    const idle: number[] = [];
    const exit = new IdleExit(fakeClock, 60_000, (ms) => idle.push(ms));
    let finish = () => {};
    const inFlight = exit.during(() => new Promise<void>((resolve) => (finish = resolve)));
    vi.advanceTimersByTime(10 * 60_000);
    expect(idle).toEqual([]);
    expect(exit.exitInMs()).toBeNull();
    finish();
    await inFlight;
    expect(exit.exitInMs()).toBe(60_000);
    vi.advanceTimersByTime(60_000);
    expect(idle).toEqual([60_000]);
  });

  it('never fires when off, and not after stop()', () => {
    const idle: number[] = [];
    const off = new IdleExit(fakeClock, null, (ms) => idle.push(ms));
    const stopped = new IdleExit(fakeClock, 1_000, (ms) => idle.push(ms));
    stopped.stop();
    vi.advanceTimersByTime(24 * 3_600_000);
    expect(idle).toEqual([]);
    expect(off.exitInMs()).toBeNull();
    expect(stopped.exitInMs()).toBeNull();
  });
});

describe('an implicit daemon', () => {
  let daemon: TestDaemon | undefined;
  afterEach(async () => {
    await daemon?.close();
    daemon = undefined;
  });

  it('shows the period and the time left in debug.status, and calls onIdle once nobody came', async () => {
    const idle: number[] = [];
    daemon = await startDaemon({ idleExit: { afterMs: 1_500, onIdle: (ms) => idle.push(ms) } });
    const status = okData<{ lifetime: Record<string, unknown> }>(await daemon.call('debug.status'));
    expect(status.lifetime).toMatchObject({ implicit: true, idleExitMs: 1_500, browserIdleMs: null });
    // The status request itself is activity: the full period lies ahead, less what it took.
    expect(status.lifetime.exitInMs).toBeGreaterThan(1_000);
    expect(status.lifetime.exitInMs).toBeLessThanOrEqual(1_500);
    await until(() => idle.length > 0, 'the idle exit', 5_000);
    expect(idle).toHaveLength(1);
    expect(idle[0]).toBeGreaterThanOrEqual(1_500);
  });

  it('holds the period while a request is in flight, and starts it over when it ends', async () => {
    daemon = await startDaemon({ idleExit: { afterMs: 30_000, onIdle: () => undefined } });
    const exit = daemon.server.deps.idleExit;
    const ext = new FakeExtension(daemon);
    await ext.connect();
    const { session } = okData<{ session: string }>(await daemon.call('tab.open', { url: 'http://x/' }));
    let answer = () => {};
    ext.behaviour = (req) =>
      req.action === 'text'
        ? new Promise((resolve) => {
            answer = () =>
              resolve({
                ok: true,
                data: { url: 'http://x/', title: 'Page', text: 'hi', totalChars: 2, truncated: false },
              });
          })
        : ext.defaultAnswer(req);
    const text = daemon.call('text', {}, session);
    await until(() => ext.received.some((r) => r.action === 'text'), 'the text request at the driver');
    expect(exit?.exitInMs()).toBeNull();
    answer();
    expect((await text).ok).toBe(true);
    expect(exit?.exitInMs()).toBeGreaterThan(29_000);
    await ext.drop();
  });

  it('is not kept up by a connected driver, however busy its pings', async () => {
    const idle: number[] = [];
    daemon = await startDaemon({ idleExit: { afterMs: 1_500, onIdle: (ms) => idle.push(ms) } });
    const ext = new FakeExtension(daemon);
    await ext.connect();
    const pings = setInterval(() => ext.send({ type: 'ping', ts: Date.now() }), 20);
    try {
      okData(await daemon.call('debug.status'));
      expect(idle).toEqual([]);
      await until(() => idle.length > 0, 'the idle exit with an extension connected', 5_000);
    } finally {
      clearInterval(pings);
      await ext.drop();
    }
  });

  it('is absent from a daemon started by a person: it stays until stopped', async () => {
    daemon = await startDaemon();
    const status = okData<{ lifetime: Record<string, unknown> }>(await daemon.call('debug.status'));
    expect(status.lifetime).toEqual({
      implicit: false,
      idleExitMs: null,
      exitInMs: null,
      browserIdleMs: null,
    });
  });
});
