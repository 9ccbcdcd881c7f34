/**
 * The downloads suite (tests/kit/suites/downloads.ts) on the CDP driver: the daemon's embedded
 * headless Chromium, started with a small download cap (BPROXY_DOWNLOAD_MAX_BYTES).
 */
import { afterAll } from 'vitest';
import { expectNoChromiumLeft } from '../kit/chromium';
import { Cli } from '../kit/cli';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { defineDownloadsSuite, TEST_DOWNLOAD_CAP } from '../kit/suites/downloads';
import type { SuiteEnv } from '../kit/agent';

let pages: FixtureServer | undefined;
let cli: Cli | undefined;
let starting: Promise<SuiteEnv> | undefined;

async function start(): Promise<SuiteEnv> {
  pages = await serveFixtures();
  cli = new Cli('bproxy-e2e-downloads-cdp-');
  cli.setEnv({ BPROXY_DOWNLOAD_MAX_BYTES: String(TEST_DOWNLOAD_CAP) });
  await cli.start(['--browser', 'headless']);
  return { cli, pages, browser: 'headless' };
}

afterAll(async () => {
  const home = cli?.home;
  await cli?.dispose();
  await pages?.close();
  if (home) await expectNoChromiumLeft([home]);
}, 60_000);

defineDownloadsSuite({
  label: 'the CDP driver',
  start: () => (starting ??= start()),
});
