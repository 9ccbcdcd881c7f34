/**
 * A user's machine in a temporary folder, for the native host's end-to-end tests: HOME and
 * XDG_CONFIG_HOME point into it, `bproxy host install --browser chromium` registers the host there as
 * a user would, and headless Chromium runs with the profile in the place Chromium reads its per-user
 * native hosts from (`$XDG_CONFIG_HOME/chromium/NativeMessagingHosts`), the built extension loaded.
 * Chromium then starts the real host through the real launcher; nobody pairs by hand.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeProfile } from './chromium';
import { launchWithExtension, type ExtensionBrowser } from './extension';
import { until } from './wait';
import { Cli } from './cli';

export interface NativeMachine {
  cli: Cli;
  browser: ExtensionBrowser;
  /** The fake user's home (HOME). */
  root: string;
  /** What `bproxy host install` printed. */
  installed: { launcher: string; registered: { browser: string; location: string }[] };
  /** Waits until the extension, paired by the host, is connected to the daemon the host started. */
  connected(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface NativeMachineOptions {
  /** Runs after `host install`, before the browser starts (a test changes what was installed). */
  beforeLaunch?: (
    cli: Cli,
    installed: NativeMachine['installed'] & { bundle: string },
  ) => Promise<void> | void;
  /** The unpacked extension to load (default the built one). */
  extensionDir?: string;
  /** Headed on this X display (the headed tier; tests/kit/headed.ts). */
  display?: string;
}

/** `env`: more environment for the browser, which hands it to the host (e.g. BPROXY_TERMINAL_COMMAND). */
export async function launchWithNativeHost(
  prefix = 'bproxy-e2e-native-',
  env: Record<string, string> = {},
  options: NativeMachineOptions = {},
): Promise<NativeMachine> {
  const cli = new Cli(prefix);
  const root = mkdtempSync(join(tmpdir(), `${prefix}user-`));
  const config = join(root, '.config');
  const userDataDir = join(config, 'chromium');
  mkdirSync(userDataDir, { recursive: true });
  cli.setEnv({ ...env, HOME: root, XDG_CONFIG_HOME: config });
  const installed = await cli.ok<NativeMachine['installed'] & { bundle: string }>([
    'host',
    'install',
    '--browser',
    'chromium',
  ]);
  await options.beforeLaunch?.(cli, installed);
  const browser = await launchWithExtension({
    userDataDir,
    // Removed with the user's folder on close; kept when a headed test restarts the browser on it.
    keepProfile: true,
    env: cli.environment(),
    ...(options.extensionDir === undefined ? {} : { extensionDir: options.extensionDir }),
    ...(options.display === undefined ? {} : { display: options.display }),
  });
  return {
    cli,
    browser,
    root,
    installed,
    async connected(timeoutMs = 30_000) {
      // Asked of the extension (its popup), not the daemon: a CLI call here would start a daemon itself.
      const popup = await browser.context.newPage();
      try {
        await popup.goto(`chrome-extension://${browser.extensionId}/popup.html`);
        await until(
          'the extension to pair through the native host and connect',
          async () => {
            const paired = await popup.textContent('#paired');
            const connection = (await popup.textContent('#connection')) ?? '';
            return paired === 'yes, by the native host' && /^connected/i.test(connection);
          },
          timeoutMs,
        );
      } finally {
        await popup.close();
      }
    },
    async close() {
      await browser.close();
      await cli.dispose();
      await removeProfile(root);
    },
  };
}
