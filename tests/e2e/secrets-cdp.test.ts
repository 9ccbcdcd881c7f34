/**
 * The secrets suite (tests/kit/suites/secrets.ts) on the CDP driver: the real daemon (at the debug log
 * level, so its logs hold every payload) and CLI with the embedded headless Chromium.
 */
import { afterAll } from 'vitest';
import { expectNoChromiumLeft } from '../kit/chromium';
import { Cli } from '../kit/cli';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { defineSecretSuite } from '../kit/suites/secrets';
import type { SuiteEnv } from '../kit/agent';

let cli: Cli | undefined;
let pages: FixtureServer | undefined;
let starting: Promise<SuiteEnv> | undefined;

async function start(): Promise<SuiteEnv> {
  pages = await serveFixtures();
  cli = new Cli('bproxy-e2e-secrets-cdp-');
  cli.setEnv({ BPROXY_LOG_LEVEL: 'debug' });
  await cli.start(['--browser', 'headless']);
  return { cli, pages, browser: 'headless' };
}

afterAll(async () => {
  const dirs = cli ? [cli.home] : [];
  await cli?.dispose();
  await pages?.close();
  await expectNoChromiumLeft(dirs);
}, 60_000);

defineSecretSuite({ label: 'the CDP driver', start: () => (starting ??= start()) });
