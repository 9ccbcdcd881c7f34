/**
 * The bridge as a faithful Chrome for the tools that launch it (Puppeteer here, as its own test suite
 * does): the switches it passes honoured where no user data is at stake and refused on a profile of
 * the user's, `Browser.close` with the events and the profile writes Chrome gives, and no browser
 * left behind however the bridge is killed — in ws mode, and in the middle of a launch.
 */
import { spawn } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath } from '../kit/chromium';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { until } from '../kit/wait';
import {
  alive,
  BRIDGE,
  bridgeDirs,
  bridgeEnv,
  bridgeLog,
  browserPids,
  startWsBridge,
  TOKEN,
  type BridgeDirs,
} from '../kit/bridge';

let dirs: BridgeDirs;
let pages: FixtureServer;
const PROFILES = ['two', 'cookies', 'tools', 'users', 'ws-killed', 'launch-killed', 'recipes'];

beforeAll(async () => {
  dirs = bridgeDirs();
  pages = await serveFixtures();
});

afterAll(async () => {
  for (const name of PROFILES)
    for (const pid of browserPids(dirs.profile(name))) process.kill(pid, 'SIGKILL');
  await pages?.close();
  await dirs.remove();
});

function launch(
  profile: string,
  extra: { env?: Record<string, string>; args?: string[]; pipe?: boolean } = {},
) {
  return puppeteer.launch({
    executablePath: BRIDGE,
    pipe: extra.pipe ?? true,
    headless: true,
    env: bridgeEnv(dirs, extra.env),
    userDataDir: dirs.profile(profile),
    args: extra.args ?? [],
  });
}

/** A name only --host-resolver-rules can resolve: .test is reserved and never in DNS. */
const MAPPED = 'bridge-faithful.test';
const RULES = `--host-resolver-rules=MAP ${MAPPED} 127.0.0.1`;

describe('Browser.close through the bridge, as Chrome does it', () => {
  it("settles a second connection's waiters when the first closes the browser", async () => {
    const browser = await launch('two', { pipe: false });
    const remote = await puppeteer.connect({ browserWSEndpoint: browser.wsEndpoint() });
    const page = await remote.newPage();
    const never = pages.url('never-requested.html');
    const settled = (promise: Promise<unknown>): Promise<string> =>
      promise.then(
        () => 'resolved',
        (error: Error) => error.message,
      );
    const [request, response] = await Promise.all([
      settled(page.waitForRequest(never, { timeout: 15_000 })),
      settled(page.waitForResponse(never, { timeout: 15_000 })),
      browser.close(),
    ]);
    // As from Chromium itself (Puppeteer says "Page closed!"): the page closed under the waiters,
    // no timeout ran out.
    for (const outcome of [request, response]) {
      expect(outcome).toMatch(/closed/i);
      expect(outcome).not.toMatch(/timeout/i);
    }
  }, 60_000);

  it('lets the browser write its profile: a persistent cookie set before close() is there after a relaunch', async () => {
    const first = await launch('cookies');
    const page = await first.newPage();
    await page.goto(pages.url('counter.html'));
    await page.evaluate(() => {
      document.cookie = 'kept=yes; expires=Fri, 31 Dec 9999 23:59:59 GMT';
    });
    await first.close();
    const line = bridgeLog(dirs.home).findLast((l) => l.msg === 'the browser closed itself');
    expect(line).toMatchObject({ exitedAlone: true, userDataDir: dirs.profile('cookies') });

    const second = await launch('cookies');
    const again = await second.newPage();
    await again.goto(pages.url('counter.html'));
    expect(await again.evaluate(() => document.cookie)).toContain('kept=yes');
    await second.close();
  }, 60_000);
});

describe("the tool's switches: honoured on its own profile, refused on the user's", () => {
  it("honours --host-resolver-rules and --disable-popup-blocking on a browser launched on the tool's own profile", async () => {
    const browser = await launch('tools', { args: [RULES] });
    try {
      const page = await browser.newPage();
      await page.goto(pages.url('counter.html').replace('127.0.0.1', MAPPED));
      expect(await page.$eval('#count', (e) => e.textContent)).toBe('0');
      // Puppeteer turns the popup blocker off by default, as for any browser it launches.
      await page.goto(pages.url('popup-on-load.html'));
      expect(await page.$eval('#result', (e) => e.textContent)).toBe('opened');
    } finally {
      await browser.close();
    }
  }, 60_000);

  it("refuses them on a profile of the user's (BPROXY_BRIDGE_USER_DATA_DIR)", async () => {
    const users = dirs.profile('users');
    const browser = await launch('tools-named', {
      args: [RULES],
      env: { BPROXY_BRIDGE_USER_DATA_DIR: users },
    });
    try {
      const page = await browser.newPage();
      await expect(page.goto(pages.url('counter.html').replace('127.0.0.1', MAPPED))).rejects.toThrow(
        /ERR_NAME_NOT_RESOLVED|ERR_NAME_RESOLUTION_FAILED/,
      );
      await page.goto(pages.url('popup-on-load.html'));
      expect(await page.$eval('#result', (e) => e.textContent)).toBe('blocked');
    } finally {
      await browser.close();
    }
    const starting = bridgeLog(dirs.home).findLast(
      (l) => l.msg === 'bridge starting' && l.requestedUserDataDir === users,
    );
    expect(starting).toMatchObject({ profileOwner: 'user' });
    expect(starting?.droppedArgs).toEqual(expect.arrayContaining([RULES, '--disable-popup-blocking']));
  }, 60_000);
});

describe("the README's recipes for a bridge of its own", () => {
  it('connect Playwright by URL and Puppeteer by WebSocket with the bearer; Puppeteer by URL gets the 401', async () => {
    const bridge = await startWsBridge(bridgeEnv(dirs), [
      '--headless',
      `--user-data-dir=${dirs.profile('recipes')}`,
    ]);
    const headers = { Authorization: `Bearer ${TOKEN}` };
    try {
      const playwright = await chromium.connectOverCDP(`http://127.0.0.1:${bridge.port}`, { headers });
      expect(playwright.version()).not.toBe('');
      await playwright.close();
      const viaSocket = await puppeteer.connect({
        browserWSEndpoint: `ws://127.0.0.1:${bridge.port}/devtools/browser`,
        headers,
      });
      expect(await viaSocket.version()).not.toBe('');
      await viaSocket.disconnect();
      await expect(puppeteer.connect({ browserURL: `http://127.0.0.1:${bridge.port}` })).rejects.toThrow(
        /Unauthorized|401/,
      );
    } finally {
      bridge.child.kill('SIGTERM');
      await bridge.exited;
    }
  }, 60_000);
});

describe('a SIGKILLed bridge leaves no browser', () => {
  it('in ws mode, once connected', async () => {
    const profile = dirs.profile('ws-killed');
    const bridge = await startWsBridge(bridgeEnv(dirs), ['--headless', `--user-data-dir=${profile}`]);
    const [browserPid = -1] = browserPids(profile);
    expect(browserPid).toBeGreaterThan(0);
    bridge.child.kill('SIGKILL');
    await bridge.exited;
    await until('the browser stopped', () => !alive(browserPid) && browserPids(profile).length === 0, 20_000);
  }, 60_000);

  it('in the middle of the launch, before the browser said where it listens', async () => {
    const profile = dirs.profile('launch-killed');
    // Chrome behind a launcher script that hides its "DevTools listening" line: the launch never ends.
    const slow = join(dirs.root, 'chromium-silent');
    writeFileSync(slow, `#!/bin/sh\nexec '${chromiumPath()}' "$@" 2>/dev/null\n`);
    chmodSync(slow, 0o755);
    const child = spawn(BRIDGE, ['--remote-debugging-port=0', '--headless', `--user-data-dir=${profile}`], {
      env: bridgeEnv(dirs, { BPROXY_BRIDGE_CHROME: slow, BPROXY_BRIDGE_LAUNCH_TIMEOUT_MS: '120000' }),
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const browserPid = await until('the browser started', () => browserPids(profile)[0], 20_000);
    child.kill('SIGKILL');
    await exited;
    await until('the browser stopped', () => !alive(browserPid) && browserPids(profile).length === 0, 20_000);
    // It was killed launching: it never connected.
    const own = bridgeLog(dirs.home).filter((l) => l.pid === child.pid);
    expect(own.find((l) => l.msg === 'browser connected')).toBeUndefined();
  }, 60_000);
});
