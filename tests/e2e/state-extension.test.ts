/**
 * Logins, cookies and emulation in the user's own Chrome: the state suite (tests/kit/suites/state.ts)
 * with the built extension paired to a daemon that launches no browser of its own. The suite asserts
 * what is refused there — reading or exporting the user's cookies until the user allows it,
 * overwriting a cookie the browser has, emulation beyond the tab's viewport and color scheme.
 */
import { afterAll } from 'vitest';
import type { SuiteEnv } from '../kit/agent';
import { expectNoChromiumLeft } from '../kit/chromium';
import { Cli } from '../kit/cli';
import { launchWithExtension, pairThroughPopup, type ExtensionBrowser } from '../kit/extension';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { defineStateSuite } from '../kit/suites/state';
import { until } from '../kit/wait';

interface Status {
  clients: { name: string; kind: string; connected: boolean }[];
}

let pages: FixtureServer | undefined;
let cli: Cli | undefined;
let browser: ExtensionBrowser | undefined;
let starting: Promise<SuiteEnv> | undefined;

async function startExtension(): Promise<SuiteEnv> {
  pages = await serveFixtures();
  const c = new Cli('bproxy-e2e-state-ext-');
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

afterAll(async () => {
  const dirs = [browser?.userDataDir, cli?.home].filter((d): d is string => d !== undefined);
  await browser?.close();
  await cli?.dispose();
  await pages?.close();
  await expectNoChromiumLeft(dirs);
}, 60_000);

defineStateSuite({
  label: 'the extension driver (the user’s own Chrome)',
  userChrome: true,
  start: () => (starting ??= startExtension()),
});
