/**
 * The headless drag suite (tests/kit/suites/drag-headless.ts) on the CDP driver's default browser:
 * the real daemon and CLI launching headless Chromium.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { expectNoChromiumLeft, removeProfile } from '../kit/chromium';
import { Cli } from '../kit/cli';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { defineHeadlessDragSuite } from '../kit/suites/drag-headless';

let pages: FixtureServer | undefined;
let cli: Cli | undefined;
const allowed = mkdtempSync(join(tmpdir(), 'bproxy-drag-allowed-'));

afterAll(async () => {
  const home = cli?.home;
  await cli?.dispose();
  await pages?.close();
  if (home) await expectNoChromiumLeft([home]);
  await removeProfile(allowed);
}, 60_000);

let started: ReturnType<typeof start> | undefined;
async function start() {
  pages = await serveFixtures();
  cli = new Cli('bproxy-e2e-drag-headless-');
  await cli.start(['--browser', 'headless', '--allow-files', allowed]);
  return { cli, pages, browser: 'headless', allowed };
}

defineHeadlessDragSuite({ label: 'the CDP driver', start: () => (started ??= start()) });
