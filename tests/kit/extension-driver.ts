/**
 * The extension driver as the capability suites start it: the real daemon (`service start --browser
 * none`, plus the caller's switches), headless Chromium with the built extension paired through its
 * popup, and the fixture pages; started once, closed once, with no Chromium left behind.
 */
import type { SuiteEnv } from './agent';
import { expectNoChromiumLeft } from './chromium';
import { Cli } from './cli';
import { launchWithExtension, pairThroughPopup, type ExtensionBrowser } from './extension';
import { serveFixtures, type FixtureServer } from './pages';
import { until } from './wait';

interface Status {
  clients: { name: string; kind: string; connected: boolean }[];
}

export interface PairedExtension {
  /** Starts everything on the first call; every later call returns the same environment. */
  start(): Promise<SuiteEnv>;
  /** The browser, once started. */
  browser(): ExtensionBrowser | undefined;
  /** Closes the browser, the daemon and the pages, and checks that no Chromium of theirs is left. */
  close(): Promise<void>;
}

/**
 * `homePrefix` names the daemon's temporary home; `startArgs` are added to `service start --browser
 * none`; `options.env` to the environment of the CLI and the daemon it starts (BPROXY_LOG_LEVEL, …);
 * `options.display` (a virtual screen's, tests/kit/xvfb.ts) runs the browser headed there;
 * `options.downloadsDir` is the browser's own download folder (Chrome's handling, as a user's).
 */
export function pairedExtension(
  homePrefix: string,
  startArgs: readonly string[] = [],
  options: { env?: Record<string, string>; display?: () => string; downloadsDir?: string } = {},
): PairedExtension {
  let cli: Cli | undefined;
  let pages: FixtureServer | undefined;
  let browser: ExtensionBrowser | undefined;
  let starting: Promise<SuiteEnv> | undefined;

  const startOnce = async (): Promise<SuiteEnv> => {
    pages = await serveFixtures();
    const c = new Cli(homePrefix);
    c.setEnv(options.env ?? {});
    cli = c;
    const started = await c.start(['--browser', 'none', ...startArgs]);
    const display = options.display;
    browser = await launchWithExtension({
      ...(display === undefined ? {} : { display: display() }),
      ...(options.downloadsDir === undefined ? {} : { downloadsDir: options.downloadsDir }),
    });
    await pairThroughPopup(browser, started.pairingCode, started.port);
    const client = await until('the extension client to connect', async () => {
      const status = await c.ok<Status>(['debug', 'status']);
      return status.clients.find((x) => x.kind === 'extension' && x.connected);
    });
    return { cli: c, pages, browser: client.name };
  };

  return {
    start: () => (starting ??= startOnce()),
    browser: () => browser,
    close: async () => {
      const dirs = [browser?.userDataDir, cli?.home].filter((d): d is string => d !== undefined);
      await browser?.close();
      await cli?.dispose();
      await pages?.close();
      await expectNoChromiumLeft(dirs);
    },
  };
}
