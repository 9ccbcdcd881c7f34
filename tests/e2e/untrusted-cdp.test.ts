/** The page-text-as-data suite on the CDP driver: the embedded headless Chromium the daemon launches. */
import { afterAll } from 'vitest';
import { expectNoChromiumLeft } from '../kit/chromium';
import { Cli } from '../kit/cli';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { defineUntrustedSuite } from '../kit/suites/untrusted';
import type { DriverUnderTest, SuiteEnv } from '../kit/agent';

let cli: Cli | undefined;
let pages: FixtureServer | undefined;
let starting: Promise<SuiteEnv> | undefined;

async function startHeadless(): Promise<SuiteEnv> {
  pages = await serveFixtures();
  cli = new Cli('bproxy-e2e-untrusted-cdp-');
  await cli.start(['--browser', 'headless']);
  return { cli, pages, browser: 'headless' };
}

const headless: DriverUnderTest = {
  label: 'the CDP driver (embedded headless Chromium)',
  start: () => (starting ??= startHeadless()),
};

afterAll(async () => {
  const dirs = cli === undefined ? [] : [cli.home];
  await cli?.dispose();
  await pages?.close();
  await expectNoChromiumLeft(dirs);
}, 60_000);

defineUntrustedSuite(headless);
