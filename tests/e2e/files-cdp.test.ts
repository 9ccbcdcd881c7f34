/**
 * The files suite (tests/kit/suites/files.ts) on the CDP driver: the daemon's embedded headless
 * Chromium, started by `service start --allow-files DIR`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { expectNoChromiumLeft, removeProfile } from '../kit/chromium';
import { Cli } from '../kit/cli';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { defineFilesSuite, type FilesEnv } from '../kit/suites/files';

let pages: FixtureServer | undefined;
let cli: Cli | undefined;
let starting: Promise<FilesEnv> | undefined;
const folders: string[] = [];

async function start(): Promise<FilesEnv> {
  pages = await serveFixtures();
  const allowed = mkdtempSync(join(tmpdir(), 'bproxy-files-allowed-'));
  const outside = mkdtempSync(join(tmpdir(), 'bproxy-files-outside-'));
  folders.push(allowed, outside);
  cli = new Cli('bproxy-e2e-files-cdp-');
  await cli.start(['--browser', 'headless', '--allow-files', allowed]);
  return { cli, pages, browser: 'headless', allowed, outside };
}

afterAll(async () => {
  const home = cli?.home;
  await cli?.dispose();
  await pages?.close();
  if (home) await expectNoChromiumLeft([home]);
  for (const folder of folders) await removeProfile(folder);
}, 60_000);

defineFilesSuite({ label: 'the CDP driver', start: () => (starting ??= start()) });
