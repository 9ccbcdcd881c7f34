/**
 * One launched driver per test file: a fixture server, a fake daemon on a linked pair, a fresh
 * profiles directory, and an afterAll that closes the driver (a bounded close), proves no Chromium was
 * left behind and removes the profiles (bounded, never throwing).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { chromiumPath, expectNoChromiumLeft, removeProfile } from '../../../../tests/kit/chromium';
import { startCdpDriver, type CdpDriver, type CdpDriverOptions } from '../../src/index';
import { FakeDaemon } from './fake-daemon';
import { startFixtureServer, type FixtureServer } from './fixture-server';

export interface DriverFixture {
  server: FixtureServer;
  daemon: FakeDaemon;
  driver: CdpDriver;
  profilesDir: string;
  /** tab.open on a fixture path; answers the tab id. */
  openTab(path: string): Promise<number>;
}

export function useLaunchedDriver(options: Partial<CdpDriverOptions> = {}): DriverFixture {
  const fixture = { profilesDir: mkdtempSync(join(tmpdir(), 'bproxy-cdp-test-')) } as DriverFixture;
  fixture.openTab = async (path) =>
    (await fixture.daemon.ok<{ tabId: number }>('tab.open', { url: fixture.server.url(path) })).tabId;
  beforeAll(async () => {
    fixture.server = await startFixtureServer();
    fixture.daemon = new FakeDaemon();
    fixture.driver = await startCdpDriver(
      { mode: 'launch', executablePath: chromiumPath(), profilesDir: fixture.profilesDir, ...options },
      fixture.daemon.driverEnd,
    );
  }, 30_000);
  afterAll(async () => {
    await fixture.driver?.close();
    await fixture.server?.close();
    try {
      await expectNoChromiumLeft([fixture.profilesDir]);
    } finally {
      await removeProfile(fixture.profilesDir);
    }
  }, 30_000);
  return fixture;
}
