/**
 * The cross-origin frame suite (tests/kit/suites/frames.ts) on the CDP driver: the real daemon and CLI
 * with the embedded headless Chromium, whose site isolation puts the card frame in a target of its own.
 */
import { afterAll } from 'vitest';
import { expectNoChromiumLeft } from '../kit/chromium';
import { Cli } from '../kit/cli';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { defineFrameSuite } from '../kit/suites/frames';
import type { SuiteEnv } from '../kit/agent';

let cli: Cli | undefined;
let pages: FixtureServer | undefined;
let starting: Promise<SuiteEnv> | undefined;

async function start(): Promise<SuiteEnv> {
  pages = await serveFixtures();
  cli = new Cli('bproxy-e2e-frames-cdp-');
  await cli.start(['--browser', 'headless']);
  return { cli, pages, browser: 'headless' };
}

afterAll(async () => {
  const dirs = cli ? [cli.home] : [];
  await cli?.dispose();
  await pages?.close();
  await expectNoChromiumLeft(dirs);
}, 60_000);

defineFrameSuite({ label: 'the CDP driver', start: () => (starting ??= start()) });
