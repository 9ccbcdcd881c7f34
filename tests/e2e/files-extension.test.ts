/**
 * The files suite (tests/kit/suites/files.ts) on the extension driver: the daemon started by `service
 * start --browser none --allow-files DIR`, headless Chromium with the built extension paired through
 * its popup. Upload goes through chrome.debugger, answering the file chooser the click opened.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { expectNoChromiumLeft, removeProfile } from '../kit/chromium';
import { Cli } from '../kit/cli';
import { launchWithExtension, pairThroughPopup, type ExtensionBrowser } from '../kit/extension';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { defineFilesSuite, type FilesEnv } from '../kit/suites/files';
import { until } from '../kit/wait';

interface Status {
  clients: { name: string; kind: string; connected: boolean }[];
}

let pages: FixtureServer | undefined;
let cli: Cli | undefined;
let browser: ExtensionBrowser | undefined;
let starting: Promise<FilesEnv> | undefined;
const folders: string[] = [];

async function start(): Promise<FilesEnv> {
  pages = await serveFixtures();
  const allowed = mkdtempSync(join(tmpdir(), 'bproxy-files-allowed-'));
  const outside = mkdtempSync(join(tmpdir(), 'bproxy-files-outside-'));
  folders.push(allowed, outside);
  const c = new Cli('bproxy-e2e-files-ext-');
  cli = c;
  const started = await c.start(['--browser', 'none', '--allow-files', allowed]);
  browser = await launchWithExtension();
  await pairThroughPopup(browser, started.pairingCode, started.port);
  const client = await until('the extension client to connect', async () => {
    const status = await c.ok<Status>(['debug', 'status']);
    return status.clients.find((x) => x.kind === 'extension' && x.connected);
  });
  return { cli: c, pages, browser: client.name, allowed, outside };
}

afterAll(async () => {
  const dirs = [browser?.userDataDir, cli?.home].filter((d): d is string => d !== undefined);
  await browser?.close();
  await cli?.dispose();
  await pages?.close();
  await expectNoChromiumLeft(dirs);
  for (const folder of folders) await removeProfile(folder);
}, 60_000);

defineFilesSuite({ label: 'the extension driver', start: () => (starting ??= start()) });
