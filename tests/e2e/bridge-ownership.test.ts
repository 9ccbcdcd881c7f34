/**
 * Whose browser it is decides what the bridge may do to it. A browser the bridge launched headless
 * for a pipe is stopped by the watchdog when the bridge is SIGKILLed; a browser that was already
 * running on the profile is attached to (one profile, one browser), never closed — not by
 * Browser.close, not by the bridge dying. What cannot work is refused before anything starts: a
 * running browser in the other headless mode, Chrome's default profile.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../kit/wait';
import {
  alive,
  bridgeDirs,
  bridgeEnv,
  bridgeLog,
  browserPids,
  PipeBridge,
  startOwnChromium,
  startWsBridge,
  TOKEN,
  waitForLog,
  type BridgeDirs,
} from '../kit/bridge';

let dirs: BridgeDirs;
const stops: (() => Promise<void>)[] = [];

beforeAll(() => {
  dirs = bridgeDirs();
});

afterAll(async () => {
  for (const stop of stops) await stop();
  for (const name of ['watched', 'shared', 'users'])
    for (const pid of browserPids(dirs.profile(name))) process.kill(pid, 'SIGKILL');
  await dirs.remove();
});

describe('a browser the bridge launched', () => {
  it('is stopped by the watchdog when the bridge is SIGKILLed in pipe + headless', async () => {
    const profile = dirs.profile('watched');
    const bridge = new PipeBridge(bridgeEnv(dirs), ['--headless=new', `--user-data-dir=${profile}`]);
    expect((await bridge.send('Browser.getVersion')).result).toHaveProperty('product');
    const watchdog = await waitForLog(
      dirs.home,
      'the watchdog',
      (l) => l.watchdog === true && l.bridgePid === bridge.child.pid,
    );
    // Its plan is in its argv, readable by every local user: never the endpoint secret.
    expect(readFileSync(`/proc/${watchdog.pid}/cmdline`, 'utf8')).not.toContain(TOKEN);
    const [browserPid] = browserPids(profile);
    expect(browserPid).toBeGreaterThan(0);

    bridge.child.kill('SIGKILL');
    await bridge.exited;
    await until('the headless browser stopped', () => !alive(browserPid ?? -1), 15_000);
    const line = await waitForLog(
      dirs.home,
      'the watchdog acting',
      (l) => l.bridgePid === bridge.child.pid && l.msg.includes('stopped'),
    );
    expect(line).toMatchObject({ browserPid, userDataDir: profile });
  }, 60_000);

  it('is reused by the next bridge on the same profile, which attaches instead of launching', async () => {
    const profile = dirs.profile('shared');
    const first = await startWsBridge(bridgeEnv(dirs), ['--headless', `--user-data-dir=${profile}`]);
    const [launched] = browserPids(profile);
    const second = new PipeBridge(bridgeEnv(dirs), ['--headless', `--user-data-dir=${profile}`]);
    expect((await second.send('Browser.getVersion')).result).toHaveProperty('product');
    const connected = bridgeLog(dirs.home).find(
      (l) => l.pid === second.child.pid && l.msg === 'browser connected',
    );
    expect(connected).toMatchObject({ ownership: 'attached', browserPid: launched, transportMode: 'pipe' });
    expect(browserPids(profile)).toEqual([launched]);
    second.child.kill('SIGTERM');
    await second.exited;
    // The second bridge did not own it: still running for the first one.
    expect(alive(launched ?? -1)).toBe(true);
    first.child.kill('SIGTERM');
    await first.exited;
  }, 60_000);
});

describe("the user's own browser", () => {
  it('is attached to, survives Browser.close and a SIGKILLed bridge, and gets no watchdog', async () => {
    const profile = dirs.profile('users');
    const own = await startOwnChromium(profile, true);
    stops.push(own.stop);

    const polite = new PipeBridge(bridgeEnv(dirs), ['--headless', `--user-data-dir=${profile}`]);
    expect(await polite.send('Browser.close')).toMatchObject({ result: {} });
    expect(await polite.exited).toEqual({ code: 0, signal: null });
    const kept = bridgeLog(dirs.home).find((l) => l.pid === polite.child.pid && l.browserKept === true);
    expect(kept).toMatchObject({ ownership: 'attached', browserPid: own.pid });
    expect(alive(own.pid)).toBe(true);

    const killed = new PipeBridge(bridgeEnv(dirs), ['--headless', `--user-data-dir=${profile}`]);
    expect((await killed.send('Browser.getVersion')).result).toHaveProperty('product');
    killed.child.kill('SIGKILL');
    await killed.exited;
    const lines = bridgeLog(dirs.home).filter(
      (l) => l.pid === killed.child.pid || l.bridgePid === killed.child.pid,
    );
    expect(lines.find((l) => l.msg === 'browser connected')).toMatchObject({ ownership: 'attached' });
    expect(lines.find((l) => l.watchdog !== undefined)).toBeUndefined();
    // Still answering: the browser was never touched.
    const version = await fetch(`http://127.0.0.1:${portOf(profile)}/json/version`);
    expect(version.ok).toBe(true);
    expect(alive(own.pid)).toBe(true);
  }, 60_000);

  it('is not swapped for a browser in the other mode: a headed request on a headless profile is refused', async () => {
    const profile = dirs.profile('users');
    const bridge = new PipeBridge(bridgeEnv(dirs), [`--user-data-dir=${profile}`]);
    expect(await bridge.exited).toEqual({ code: 1, signal: null });
    expect(bridge.stderr).toMatch(/open in a headless browser \(pid \d+\) but a headed one was asked for/);
    expect(bridge.stderr).toContain('BPROXY_BRIDGE_HEADLESS=true');
    expect(browserPids(profile)).toHaveLength(1);
  }, 30_000);

  it("refuses Chrome's default profile, where Chrome 136+ ignores remote debugging, and says what to do", async () => {
    const profile = join(dirs.root, '.config', 'chromium');
    mkdirSync(profile, { recursive: true });
    const bridge = new PipeBridge(bridgeEnv(dirs), ['--headless', `--user-data-dir=${profile}`]);
    expect(await bridge.exited).toEqual({ code: 1, signal: null });
    expect(bridge.stderr).toContain(
      "is Chrome's default profile. Chrome 136 and later ignore --remote-debugging-port",
    );
    expect(bridge.stderr).toContain('BPROXY_BRIDGE_USER_DATA_DIR');
    expect(browserPids(profile)).toEqual([]);
  }, 30_000);
});

function portOf(profile: string): number {
  const line = bridgeLog(dirs.home).find((l) => l.userDataDir === profile && typeof l.debugPort === 'number');
  return Number(line?.debugPort);
}
