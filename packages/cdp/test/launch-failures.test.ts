import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startCdpDriver } from '../src/index';
import { FakeDaemon } from './helpers/fake-daemon';

const profilesDir = mkdtempSync(join(tmpdir(), 'bproxy-cdp-fail-'));
afterAll(() => rmSync(profilesDir, { recursive: true, force: true }));

describe('launching a browser that cannot start', { timeout: 20_000 }, () => {
  it('rejects with the path when the binary does not exist, says no hello, and removes the profile', async () => {
    const daemon = new FakeDaemon();
    const start = startCdpDriver(
      { mode: 'launch', executablePath: '/nonexistent/chrome', profilesDir, pageScript: '' },
      daemon.driverEnd,
    );
    await expect(start).rejects.toThrow(/could not start \/nonexistent\/chrome/);
    expect(daemon.messages).toEqual([]);
    expect(readdirSync(profilesDir)).toEqual([]);
  });

  it('rejects with the exit when the binary quits at once', async () => {
    const daemon = new FakeDaemon();
    const start = startCdpDriver(
      { mode: 'launch', executablePath: '/bin/false', profilesDir, pageScript: '' },
      daemon.driverEnd,
    );
    await expect(start).rejects.toThrow(/\/bin\/false exited during startup/);
    expect(readdirSync(profilesDir)).toEqual([]);
  });

  it('asks for remote mode to name its endpoint', async () => {
    const daemon = new FakeDaemon();
    await expect(startCdpDriver({ mode: 'remote', pageScript: '' }, daemon.driverEnd)).rejects.toThrow(
      /remote mode needs wsUrl/,
    );
  });
});
