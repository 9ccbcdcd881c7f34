/**
 * The cross-origin frame suite (tests/kit/suites/frames.ts) on the extension driver: the real daemon
 * and CLI, headless Chromium with the built extension paired through its popup.
 */
import { afterAll } from 'vitest';
import { expectNoChromiumLeft } from '../kit/chromium';
import { Cli } from '../kit/cli';
import { launchWithExtension, pairThroughPopup, type ExtensionBrowser } from '../kit/extension';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { defineDragSuite } from '../kit/suites/drag';
import { defineFrameSuite } from '../kit/suites/frames';
import { until } from '../kit/wait';
import type { SuiteEnv } from '../kit/agent';

interface Status {
  clients: { name: string; kind: string; connected: boolean }[];
}

let cli: Cli | undefined;
let pages: FixtureServer | undefined;
let browser: ExtensionBrowser | undefined;
let starting: Promise<SuiteEnv> | undefined;

async function start(): Promise<SuiteEnv> {
  pages = await serveFixtures();
  const c = new Cli('bproxy-e2e-frames-ext-');
  cli = c;
  const started = await c.start(['--browser', 'none']);
  browser = await launchWithExtension();
  await pairThroughPopup(browser, started.pairingCode, started.port);
  const client = await until('the extension client to connect', async () => {
    const status = await c.ok<Status>(['debug', 'status']);
    const found = status.clients.find((x) => x.kind === 'extension');
    return found?.connected ? found : undefined;
  });
  return { cli: c, pages, browser: client.name };
}

afterAll(async () => {
  const dirs = [browser?.userDataDir, cli?.home].filter((d): d is string => d !== undefined);
  await browser?.close();
  await cli?.dispose();
  await pages?.close();
  await expectNoChromiumLeft(dirs);
}, 60_000);

defineFrameSuite({ label: 'the extension driver', start: () => (starting ??= start()) });
defineDragSuite({ label: 'the extension driver', start: () => (starting ??= start()) });
