/**
 * Closing a launched browser is bounded: a browser that ignores Browser.close, SIGTERM and its pipe
 * closing is killed after the exit bound, and close() resolves within the sum of its bounds, leaves no
 * process and no profile, and never rejects. The browser is a stand-in (helpers/stubborn-browser.mjs)
 * so the stubbornness is certain; no Chromium starts here.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { launchChrome, removeWithin } from '../../src/browser/launch';
import { isAlive } from '../helpers/processes';

const dir = mkdtempSync(join(tmpdir(), 'bproxy-cdp-close-'));
const profilesDir = join(dir, 'profiles');
const started: number[] = [];
afterAll(() => {
  for (const pid of started) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** An executable that runs the stubborn stand-in with this Node. */
function stubbornBrowser(): string {
  const script = fileURLToPath(new URL('../helpers/stubborn-browser.mjs', import.meta.url));
  const file = join(dir, 'stubborn-chrome');
  writeFileSync(file, `#!/bin/sh\nexec "${process.execPath}" "${script}" "$@"\n`);
  chmodSync(file, 0o755);
  return file;
}

describe('closing a launched browser', { timeout: 15_000 }, () => {
  it('kills a browser that ignores Browser.close and SIGTERM after the exit bound, and removes its profile, within the bounds', async () => {
    mkdirSync(profilesDir, { recursive: true });
    const bounds = { exitMs: 600, killMs: 1_000, removeMs: 800 };
    const browser = await launchChrome({
      executablePath: stubbornBrowser(),
      headless: true,
      profilesDir,
      timeoutMs: 5_000,
      closeBounds: bounds,
    });
    const pid = browser.pid ?? 0;
    started.push(pid);
    expect(browser.userAgent).toBe('Stubborn/1');
    expect(readdirSync(profilesDir)).toHaveLength(1);
    process.kill(pid, 'SIGTERM');
    expect(isAlive(pid)).toBe(true);

    const t0 = Date.now();
    const outcome = await browser.close();
    const took = Date.now() - t0;
    expect(outcome).toEqual({ killed: true, stillRunning: false });
    expect(took).toBeGreaterThanOrEqual(bounds.exitMs - 50);
    expect(took).toBeLessThan(bounds.exitMs + bounds.killMs + bounds.removeMs + 500);
    expect(isAlive(pid)).toBe(false);
    expect(readdirSync(profilesDir)).toEqual([]);
    // A second close answers the same outcome at once.
    expect(await browser.close()).toBe(outcome);
  });

  it('answers a profile it could not remove within the bound instead of throwing', async () => {
    // A path under a regular file can never be removed or read as a folder.
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    const t0 = Date.now();
    const left = await removeWithin(join(file, 'profile'), 300);
    const took = Date.now() - t0;
    expect(left).toEqual({ path: join(file, 'profile'), reason: expect.stringContaining('ENOTDIR') });
    // It retried until the bound, and not longer.
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(1_000);
  });
});
