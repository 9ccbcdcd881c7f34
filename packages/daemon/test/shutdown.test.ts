import { CLOSE_BOUNDS } from '@bproxy/cdp';
import { describe, expect, it } from 'vitest';
import { BROWSER_STOP_MS } from '../src/http/server';
import { FakeExtension, startDaemon, until } from './harness';
import { scriptedLauncher } from './helpers/scripted-launcher';

describe('shutdown', () => {
  it('drains in-flight requests, refuses newcomers with 503, and closes driver sockets', async () => {
    const daemon = await startDaemon();
    const ext = new FakeExtension(daemon);
    await ext.connect();
    const opened = await daemon.call('tab.open', { url: 'http://x/' });
    const session = opened.ok ? (opened.data as { session: string }).session : '';
    let release = () => undefined as void;
    ext.behaviour = async (req) => {
      if (req.action === 'text') await new Promise<void>((r) => (release = r));
      return ext.defaultAnswer(req);
    };
    const inflight = daemon.call('text', {}, session);
    await until(() => ext.received.some((r) => r.action === 'text'), 'the request to reach the extension');
    const socketClosed = new Promise<number>((resolve) => ext.socket?.on('close', (c) => resolve(c)));
    const stopping = daemon.server.shutdown(5_000);
    const refused = await daemon
      .post({ id: 'late1', action: 'session.list', params: {}, deadline: Date.now() + 1000 })
      .catch(() => null);
    if (refused) expect(refused.status).toBe(503);
    release();
    const answer = await inflight;
    expect(answer.ok).toBe(true);
    await stopping;
    expect(await socketClosed).toBe(4005);
  });
});

describe('shutdown and the browsers the daemon started', () => {
  it('waits for a started browser to be gone (exited, its folder removed) before it returns', async () => {
    const launched = scriptedLauncher('headless', 'launched');
    const daemon = await startDaemon({ launchers: [launched.launcher] });
    expect((await daemon.call('tab.open', { url: 'http://x/' })).ok).toBe(true);
    const release = launched.holdStops();
    let returned = false;
    const stopping = daemon.server.shutdown(1_000).then(() => (returned = true));
    await until(() => launched.drivers.every((d) => d.stopCalled), 'the daemon to stop its browser');
    expect(returned).toBe(false);
    release();
    await stopping;
    expect(returned).toBe(true);
    expect(daemon.logLines.some((l) => l.includes('browser_stop_timeout'))).toBe(false);
  });

  it('returns within its bound when a browser never finishes stopping, and says so in the log', async () => {
    const launched = scriptedLauncher('headless', 'launched');
    const daemon = await startDaemon({ launchers: [launched.launcher], browserStopMs: 200 });
    expect((await daemon.call('tab.open', { url: 'http://x/' })).ok).toBe(true);
    launched.holdStops(); // never released: this browser's stop never settles
    // The bound is the only wait: the test's own timeout (3 s) fails it should shutdown hang.
    await daemon.server.shutdown(1_000);
    expect(launched.drivers.map((d) => d.stopCalled)).toEqual([true]);
    const note = daemon.logLines.find((l) => l.includes('browser_stop_timeout'));
    expect(note).toContain('"browsers":["headless"]');
  }, 3_000);

  it('waits longer than a launched browser can take to close, kill included, so that none is left behind', () => {
    expect(BROWSER_STOP_MS).toBeGreaterThan(
      CLOSE_BOUNDS.exitMs + CLOSE_BOUNDS.killMs + CLOSE_BOUNDS.removeMs,
    );
  });
});
