/**
 * The console and network suite on the extension driver: the daemon started with `--browser none`, a
 * headless Chromium with the built extension paired through its popup, the tab's log read through the
 * chrome.debugger the extension attaches to the tabs it drives.
 */
import { afterAll, expect, it } from 'vitest';
import { pairThroughPopup, launchWithExtension, type ExtensionBrowser } from '../kit/extension';
import { expectNoChromiumLeft } from '../kit/chromium';
import { Cli } from '../kit/cli';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { until } from '../kit/wait';
import { defineObserveSuite } from '../kit/suites/observe';
import type { DriverUnderTest, SuiteEnv } from '../kit/agent';

interface Status {
  clients: { name: string; kind: string; connected: boolean }[];
}

let cli: Cli | undefined;
let pages: FixtureServer | undefined;
let browser: ExtensionBrowser | undefined;
let starting: Promise<SuiteEnv> | undefined;

async function startExtension(): Promise<SuiteEnv> {
  pages = await serveFixtures();
  const c = new Cli('bproxy-e2e-observe-ext-');
  cli = c;
  const started = await c.start(['--browser', 'none']);
  browser = await launchWithExtension();
  await pairThroughPopup(browser, started.pairingCode, started.port);
  const client = await until('the extension client to connect', async () => {
    const status = await c.ok<Status>(['debug', 'status']);
    const found = status.clients.find((x) => x.kind === 'extension');
    return found?.connected === true ? found : undefined;
  });
  return { cli: c, pages, browser: client.name };
}

const extension: DriverUnderTest = {
  label: 'the extension driver',
  start: () => (starting ??= startExtension()),
};

afterAll(async () => {
  const dirs = [browser?.userDataDir, cli?.home].filter((d): d is string => d !== undefined);
  await browser?.close();
  await cli?.dispose();
  await pages?.close();
  await expectNoChromiumLeft(dirs);
}, 60_000);

defineObserveSuite(extension);

it('logged no errors in the service worker', async () => {
  await extension.start();
  expect(browser?.workerErrors).toEqual([]);
});
