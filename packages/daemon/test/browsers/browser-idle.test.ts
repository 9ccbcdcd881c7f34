/**
 * A browser the daemon opened closes once it has had no tab for the browser-idle period, and opens
 * again on the next tab open. The countdown on a faked clock, then through the daemon with scripted
 * launchers: only launched browsers (and farm browsers, see farm-sessions.test.ts) are ever closed,
 * never an attached or a shared remote one, nor an extension.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdleBrowsers } from '../../src/browsers/browser-idle';
import { FakeExtension, okData, startDaemon, until, type TestDaemon } from '../harness';
import { scriptedLauncher } from '../helpers/scripted-launcher';

describe('the browser-idle countdown', () => {
  const clock = { now: () => Date.now(), monotonic: () => Date.now() };
  let busy: Set<string>;
  let closed: string[];
  let idle: IdleBrowsers;
  beforeEach(() => {
    vi.useFakeTimers();
    busy = new Set();
    closed = [];
    idle = new IdleBrowsers({
      clock,
      afterMs: 60_000,
      closable: (key) => key !== 'extension',
      busy: (key) => busy.has(key),
      onIdle: (key) => closed.push(key),
    });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('closes a browser nothing needed for the whole period, once', () => {
    idle.check('b');
    vi.advanceTimersByTime(59_999);
    expect(closed).toEqual([]);
    expect(idle.closesInMs('b')).toBe(1);
    vi.advanceTimersByTime(1);
    expect(closed).toEqual(['b']);
    vi.advanceTimersByTime(600_000);
    expect(closed).toEqual(['b']);
  });

  it('stops counting when a tab comes, and starts from zero when it goes', () => {
    idle.check('b');
    vi.advanceTimersByTime(50_000);
    busy.add('b');
    idle.check('b');
    expect(idle.closesInMs('b')).toBeUndefined();
    vi.advanceTimersByTime(600_000);
    busy.delete('b');
    idle.check('b');
    vi.advanceTimersByTime(59_999);
    expect(closed).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(closed).toEqual(['b']);
  });

  it('keeps a browser held by a tab opening in it, and one still busy when the period ends', () => {
    idle.check('b');
    const release = idle.hold('b');
    vi.advanceTimersByTime(600_000);
    expect(closed).toEqual([]);
    release();
    busy.add('b'); // a request on its way when the period ran out: a new period
    vi.advanceTimersByTime(60_000);
    expect(closed).toEqual([]);
    busy.delete('b');
    vi.advanceTimersByTime(60_000);
    expect(closed).toEqual(['b']);
  });

  it('never counts down a browser it may not close, even after a hold on it', () => {
    idle.check('extension');
    idle.hold('extension')();
    vi.advanceTimersByTime(600_000);
    expect(closed).toEqual([]);
    expect(idle.closesInMs('extension')).toBeUndefined();
  });

  it('never closes anything when off', () => {
    const off = new IdleBrowsers({
      clock,
      afterMs: null,
      closable: () => true,
      busy: () => false,
      onIdle: (k) => closed.push(k),
    });
    off.check('b');
    vi.advanceTimersByTime(24 * 3_600_000);
    expect(closed).toEqual([]);
    expect(off.closesInMs('b')).toBeUndefined();
  });
});

interface StatusClient {
  name: string;
  connected: boolean;
  tabs: number;
  closesInMs?: number;
}
const clientsOf = async (daemon: TestDaemon) =>
  okData<{ clients: StatusClient[] }>(await daemon.call('debug.status')).clients;

describe('browsers the daemon opened, through the daemon', () => {
  let daemon: TestDaemon | undefined;
  afterEach(async () => {
    await daemon?.close();
    daemon = undefined;
  });

  it('closes a launched browser after the period without a tab, and launches a new one on the next tab open', async () => {
    const headless = scriptedLauncher('headless', 'launched');
    daemon = await startDaemon({ launchers: [headless.launcher], browserIdleMs: 300 });
    const release = headless.holdTabOpens();
    const opening = daemon.call('tab.open', { url: 'http://x/' });
    await until(() => headless.drivers[0]?.received.length === 1, 'the tab.open at the browser');
    // Connected without a tab, but a tab is on its way: no countdown.
    expect((await clientsOf(daemon)).find((c) => c.name === 'headless')?.closesInMs).toBeUndefined();
    release();
    const { session } = okData<{ session: string }>(await opening);
    expect((await clientsOf(daemon)).find((c) => c.name === 'headless')).toMatchObject({ tabs: 1 });

    okData(await daemon.call('tab.close', {}, session));
    const counting = (await clientsOf(daemon)).find((c) => c.name === 'headless');
    expect(counting?.closesInMs).toBeGreaterThan(0);
    expect(counting?.closesInMs).toBeLessThanOrEqual(300);
    await until(() => headless.open().length === 0, 'the idle browser to close', 3_000);
    expect(headless.drivers[0]?.closedBecause).toBe('browser_idle');
    expect(await clientsOf(daemon)).toEqual([
      expect.objectContaining({ name: 'headless', connected: false, tabs: 0 }),
    ]);

    okData(await daemon.call('tab.open', { url: 'http://x/again' }, session));
    expect(headless.drivers).toHaveLength(2);
    expect(headless.open()).toHaveLength(1);
  });

  it('never closes an attached or a shared remote browser, nor an extension', async () => {
    const attached = scriptedLauncher('attached', 'attached');
    const remote = scriptedLauncher('remote', 'remote');
    const headless = scriptedLauncher('headless', 'launched');
    daemon = await startDaemon({
      launchers: [remote.launcher, attached.launcher, headless.launcher],
      browserIdleMs: 300,
    });
    const ext = new FakeExtension(daemon, undefined, 'chrome');
    await ext.connect();
    try {
      // A tab opened and closed in each; the launched browser's goes last, so when it has been closed
      // for idleness every other browser has sat without a tab for longer.
      for (const browser of ['chrome', 'remote', 'attached', 'headless']) {
        const { session } = okData<{ session: string }>(
          await daemon.call('tab.open', { url: 'http://x/', browser }),
        );
        okData(await daemon.call('session.close', {}, session));
      }
      await until(() => headless.open().length === 0, 'the launched browser to close', 3_000);
      expect(attached.open()).toHaveLength(1);
      expect(remote.open()).toHaveLength(1);
      const clients = await clientsOf(daemon);
      for (const name of ['chrome', 'remote', 'attached'])
        expect(clients.find((c) => c.name === name)).toEqual(
          expect.not.objectContaining({ closesInMs: expect.anything() }),
        );
      expect(clients.find((c) => c.name === 'chrome')?.connected).toBe(true);
    } finally {
      await ext.drop();
    }
  });
});
