/**
 * The CDP libraries launching the bridge as their Chrome: Puppeteer with a pipe and with a port (its
 * default, through the gated endpoint and the path it read from the bridge's stderr), Playwright with
 * a pipe and in port mode (pipe plus a DevTools port). Each drives a page, closes the browser, and
 * the bridge leaves nothing running.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { ROOT } from '../kit/paths';
import { alive, BRIDGE, bridgeDirs, bridgeEnv, bridgeLog, type BridgeDirs } from '../kit/bridge';

let dirs: BridgeDirs;
let pages: FixtureServer;

beforeAll(async () => {
  dirs = bridgeDirs();
  pages = await serveFixtures();
});

afterAll(async () => {
  await pages?.close();
  await dirs.remove();
});

/** Every browser the bridges of this file launched has stopped. */
function launchedBrowsersGone(): boolean {
  const launched = bridgeLog(dirs.home).filter(
    (l) => l.msg === 'browser connected' && l.ownership === 'launched',
  );
  return launched.length > 0 && launched.every((l) => !alive(Number(l.browserPid)));
}

describe('Puppeteer (puppeteer-core) launching the bridge', () => {
  it.each([
    ['a pipe', true],
    ['a port', false],
  ])(
    'drives a page over %s and closes its browser',
    async (_how, pipe) => {
      const browser = await puppeteer.launch({
        executablePath: BRIDGE,
        pipe,
        headless: true,
        env: bridgeEnv(dirs),
        userDataDir: dirs.profile(`puppeteer-${String(pipe)}`),
      });
      const page = await browser.newPage();
      await page.goto(pages.url('counter.html'));
      await page.click('#inc');
      expect(await page.$eval('#count', (e) => e.textContent)).toBe('1');
      await browser.close();
      expect(launchedBrowsersGone()).toBe(true);
    },
    60_000,
  );
});

describe('Playwright (playwright-core) launching the bridge', () => {
  it.each([
    ['pipe mode', []],
    ['port mode', ['--remote-debugging-port=0']],
  ])(
    'drives a page in %s and closes its browser',
    async (_how, args) => {
      const browser = await chromium.launch({
        executablePath: BRIDGE,
        headless: true,
        env: bridgeEnv(dirs),
        args,
      });
      const page = await browser.newPage();
      await page.goto(pages.url('counter.html'));
      await page.click('#inc');
      expect(await page.textContent('#count')).toBe('1');
      await browser.close();
      expect(launchedBrowsersGone()).toBe(true);
    },
    60_000,
  );
});

describe('bproxy bridge, the CLI command', () => {
  const run = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        [join(ROOT, 'packages', 'cli', 'bin', 'bproxy.mjs'), 'bridge', ...args],
        { env: bridgeEnv(dirs) },
        (error, stdout, stderr) =>
          resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr }),
      );
    });

  it('prints the executable to give tools as their Chrome', async () => {
    expect(await run(['--print-path'])).toEqual({ code: 0, stdout: `${BRIDGE}\n`, stderr: '' });
  });

  it('says what is missing when started by hand without a pipe or a port', async () => {
    const pipe = await run(['--remote-debugging-pipe']);
    expect(pipe.code).toBe(1);
    expect(pipe.stderr).toContain(
      '--remote-debugging-pipe needs file descriptors 3 (commands in) and 4 (answers out)',
    );
    const nothing = await run([]);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toContain('nothing to serve');
  });
});
