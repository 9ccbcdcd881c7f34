/**
 * The bridge's lifecycle with a real Chromium killed under it, seen from a raw CDP client so that the
 * order of messages can be checked: ws mode degrades and recovers on the next request (bootstrap
 * before flush, fresh Target.attachedToTarget, the bridge's own ids never visible), Browser.close
 * while degraded is answered at once without a relaunch (also with Playwright's id -9999), and pipe
 * mode exits when its browser goes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../kit/wait';
import {
  alive,
  bridgeDirs,
  bridgeEnv,
  bridgeLog,
  browserPids,
  PipeBridge,
  RawCdp,
  startWsBridge,
  waitForLog,
  type BridgeDirs,
} from '../kit/bridge';

let dirs: BridgeDirs;

beforeAll(() => {
  dirs = bridgeDirs();
});

afterAll(async () => {
  for (const name of ['ws', 'close', 'pipe'])
    for (const pid of browserPids(dirs.profile(name))) process.kill(pid, 'SIGKILL');
  await dirs.remove();
});

describe('ws mode: a lost browser comes back on the next request', () => {
  it('degrades, then relaunches, restores auto-attach before sending what waited, and never shows its own ids', async () => {
    const profile = dirs.profile('ws');
    const bridge = await startWsBridge(bridgeEnv(dirs), ['--headless', `--user-data-dir=${profile}`]);
    const cdp = await RawCdp.connect(bridge.wsUrl);
    await cdp.send('Target.setAutoAttach', {
      autoAttach: true,
      waitForDebuggerOnStart: false,
      flatten: true,
    });
    const first = await until('the first page attached', () =>
      cdp.received.find((m) => m.method === 'Target.attachedToTarget'),
    );
    const oldSession = first.params?.sessionId;
    const [browserPid] = browserPids(profile);
    expect(browserPid).toBeGreaterThan(0);

    process.kill(browserPid ?? -1, 'SIGKILL');
    const lost = await waitForLog(
      dirs.home,
      'degraded',
      (l) => l.msg.startsWith('browser lost') && l.pid === bridge.child.pid,
    );
    expect(lost).toMatchObject({ runtimeState: 'degraded', transportMode: 'ws', ownership: 'launched' });
    expect(String(lost.disconnectSignals)).toContain('ConnectionClosed');
    // The tool hears that its session ended, as it would from a browser closing its targets.
    await until('the old session detached', () =>
      cdp.received.find(
        (m) => m.method === 'Target.detachedFromTarget' && m.params?.sessionId === oldSession,
      ),
    );
    expect(cdp.closed).toBe(false);

    const mark = cdp.received.length;
    const answer = await cdp.send('Target.getTargets', {}, undefined, 500);
    expect(answer.error).toBeUndefined();
    const after = cdp.received.slice(mark);
    const attachedAt = after.findIndex((m) => m.method === 'Target.attachedToTarget');
    const answeredAt = after.findIndex((m) => m.id === 500);
    expect(attachedAt).toBeGreaterThanOrEqual(0);
    expect(attachedAt).toBeLessThan(answeredAt);
    const fresh = after[attachedAt]?.params?.sessionId;
    expect(fresh).not.toBe(oldSession);
    // Only answers to ids this client used: the bootstrap's answer stayed inside the bridge.
    const sentIds = new Set([1, 500]);
    expect(cdp.received.filter((m) => m.id !== undefined).every((m) => sentIds.has(m.id ?? -1))).toBe(true);

    const log = bridgeLog(dirs.home).filter((l) => l.pid === bridge.child.pid);
    const at = (match: (l: (typeof log)[number]) => boolean): number => log.findIndex(match);
    expect(log.find((l) => l.msg === 'browser recovered')).toMatchObject({
      recoveryAttempt: 1,
      recoveryResult: 'relaunched',
    });
    expect(at((l) => l.recoveryBootstrap === 'started')).toBeGreaterThan(
      at((l) => l.msg === 'browser recovered'),
    );
    expect(log.find((l) => l.recoveryBootstrap === 'acknowledged')).toMatchObject({ queued: 1 });

    // The tool's next command on its new session works, without reconnecting — once the page has its
    // execution context, which a tool waits for as it would after any attach (the target was resumed
    // from its start-up pause a moment ago; on a loaded machine its context may not exist yet).
    await cdp.send('Runtime.enable', {}, fresh as string);
    await until('the new session has an execution context', () =>
      cdp.received.find((m) => m.method === 'Runtime.executionContextCreated' && m.sessionId === fresh),
    );
    const evaluated = await cdp.send(
      'Runtime.evaluate',
      { expression: '6 * 7', returnByValue: true },
      fresh as string,
    );
    expect(evaluated).toMatchObject({ result: { result: { value: 42 } } });
    expect(browserPids(profile)).toHaveLength(1);
    expect(browserPids(profile)[0]).not.toBe(browserPid);

    cdp.close();
    bridge.child.kill('SIGTERM');
    expect(await bridge.exited).toEqual({ code: 0, signal: null });
    // Launched headless: stopped on a normal exit.
    expect(browserPids(profile)).toEqual([]);
  }, 60_000);

  it("answers Browser.close (Playwright's id -9999) at once while the browser is gone, and relaunches nothing", async () => {
    const profile = dirs.profile('close');
    const bridge = await startWsBridge(bridgeEnv(dirs), ['--headless', `--user-data-dir=${profile}`]);
    const cdp = await RawCdp.connect(bridge.wsUrl);
    expect((await cdp.send('Browser.getVersion')).result).toHaveProperty('product');
    const [browserPid] = browserPids(profile);
    process.kill(browserPid ?? -1, 'SIGKILL');
    await waitForLog(
      dirs.home,
      'degraded',
      (l) => l.msg.startsWith('browser lost') && l.pid === bridge.child.pid,
    );

    const answer = await cdp.send('Browser.close', {}, undefined, -9999);
    expect(answer).toEqual({ id: -9999, result: {} });
    expect(await bridge.exited).toEqual({ code: 0, signal: null });
    const log = bridgeLog(dirs.home).filter((l) => l.pid === bridge.child.pid);
    expect(log.find((l) => l.shortCircuitBrowserClose === true)).toBeDefined();
    expect(log.find((l) => l.msg === 'recovering the browser')).toBeUndefined();
    expect(browserPids(profile)).toEqual([]);
  }, 60_000);
});

describe('pipe mode: the bridge ends with its browser', () => {
  it('exits cleanly when the browser is killed, closing the pipe so the tool starts anew', async () => {
    const profile = dirs.profile('pipe');
    const bridge = new PipeBridge(bridgeEnv(dirs), ['--headless', `--user-data-dir=${profile}`]);
    expect((await bridge.send('Browser.getVersion')).result).toHaveProperty('product');
    const [browserPid] = browserPids(profile);
    process.kill(browserPid ?? -1, 'SIGKILL');
    expect(await bridge.exited).toEqual({ code: 0, signal: null });
    const lost = bridgeLog(dirs.home).find(
      (l) => l.pid === bridge.child.pid && l.msg.startsWith('browser lost'),
    );
    expect(lost).toMatchObject({ transportMode: 'pipe', runtimeState: 'connected', ownership: 'launched' });
    expect(alive(browserPid ?? -1)).toBe(false);
  }, 60_000);
});
