import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { closeBrowserWithin } from '../../../tests/kit/chromium';
import { useLaunchedDriver } from './helpers/driver-fixture';
import { isAlive, processesMentioning, until } from './helpers/processes';

const f = useLaunchedDriver();

describe('CDP driver when its launched browser dies', { timeout: 30_000 }, () => {
  it('fails the request in flight with BROWSER_DISCONNECTED at once, and relaunches on the next tab.open', async () => {
    const tabId = await f.openTab('/counter.html');
    const firstPid = f.driver.browserPid;
    expect(firstPid).toBeDefined();
    const inFlight = f.daemon.request(
      'navigate',
      { url: f.server.url('/slow?ms=20000') },
      { tabId, timeoutMs: 25_000 },
    );
    await f.server.requested('/slow');
    process.kill(firstPid ?? 0, 'SIGKILL');
    const started = Date.now();
    const response = await inFlight;
    expect(response.ok === false && response.error.code).toBe('BROWSER_DISCONNECTED');
    expect(Date.now() - started).toBeLessThan(5_000);
    await f.daemon.waitFor(
      () => f.daemon.messages.some((m) => m.type === 'tab_closed' && m.tabId === tabId),
      'tab_closed for the lost tab',
    );

    const stale = await f.daemon.request('text', {}, { tabId });
    expect(stale.ok === false && stale.error.code).toBe('BROWSER_DISCONNECTED');

    const reopened = await f.daemon.ok<{ tabId: number; title: string }>('tab.open', {
      url: f.server.url('/counter.html'),
    });
    expect(reopened.title).toBe('Counter');
    expect(reopened.tabId).not.toBe(tabId);
    expect(f.driver.browserPid).toBeDefined();
    expect(f.driver.browserPid).not.toBe(firstPid);
    await f.daemon.ok('click', { target: { selector: '#inc' } }, { tabId: reopened.tabId });
  });
});

describe('a launched browser whose driver process is killed', { timeout: 40_000 }, () => {
  const profilesDir = mkdtempSync(join(tmpdir(), 'bproxy-cdp-orphan-'));
  afterAll(async () => {
    await closeBrowserWithin(profilesDir, async () => {
      for (const pid of processesMentioning(profilesDir)) process.kill(pid, 'SIGKILL');
    });
  });

  it('exits by itself when the pipe to its parent closes', async () => {
    const script = fileURLToPath(new URL('./helpers/driver-process.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script, profilesDir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the driver process did not start')), 20_000);
      createInterface({ input: child.stdout }).once('line', (l) => {
        clearTimeout(timer);
        resolve(l);
      });
    });
    const { browserPid } = JSON.parse(line) as { browserPid: number };
    expect(isAlive(browserPid)).toBe(true);
    expect(processesMentioning(profilesDir).length).toBeGreaterThan(0);
    child.kill('SIGKILL');
    await until(
      () => !isAlive(browserPid) && processesMentioning(profilesDir).length === 0,
      'the orphaned Chromium to exit',
      15_000,
    );
  });
});
