/**
 * The browsers the daemon can start itself, from `service start` options (argv) or the environment
 * (BPROXY_BROWSER, BPROXY_ATTACH, BPROXY_CDP_URL — argv wins). The first launcher is the default one,
 * started on first use when no extension is connected: a configured remote endpoint, else an attached
 * Chrome, else the embedded headless Chromium. Each runs the CDP driver in-process over a linked
 * transport pair, so the daemon sees it as one more client.
 */
import { mkdirSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { createLinkedTransportPair, type DaemonMessage, type DriverMessage } from '@bproxy/protocol';
import type { CdpDriverOptions } from '@bproxy/cdp';
import { type DaemonArgs, type Env, LifecycleError } from '@bproxy/client/lifecycle';
import type { BrowserLauncher, DriverTransport } from '../server-options';

export interface BrowserChoice {
  browser: 'headless' | 'headed' | 'none';
  attach: string | null;
  cdpUrl: string | null;
}

export function browserChoice(
  args: Pick<DaemonArgs, 'browser' | 'attach' | 'cdpUrl'>,
  env: Env,
): BrowserChoice {
  const browser = args.browser ?? (env.BPROXY_BROWSER || 'headless');
  if (browser !== 'headless' && browser !== 'headed' && browser !== 'none') {
    throw new LifecycleError('config', `BPROXY_BROWSER must be headless, headed or none, got "${browser}"`);
  }
  return {
    browser,
    attach: args.attach ?? (env.BPROXY_ATTACH || null),
    cdpUrl: args.cdpUrl ?? (env.BPROXY_CDP_URL || null),
  };
}

/** --attach TARGET: a port number, a ws/http DevTools URL, or a user-data-dir holding DevToolsActivePort. */
export function attachOptions(target: string): CdpDriverOptions {
  if (/^[0-9]{1,5}$/.test(target)) {
    const port = Number(target);
    if (port < 1 || port > 65535)
      throw new LifecycleError('config', `--attach port must be 1-65535, got "${target}"`);
    return { mode: 'attach', port };
  }
  if (/^(wss?|https?):\/\//.test(target)) return { mode: 'attach', wsUrl: target };
  return { mode: 'attach', userDataDir: isAbsolute(target) ? target : resolve(target) };
}

function remoteOptions(url: string): CdpDriverOptions {
  if (!/^(wss?|https?):\/\//.test(url)) {
    throw new LifecycleError('config', 'the CDP URL must start with ws://, wss://, http:// or https://');
  }
  return { mode: 'remote', wsUrl: url };
}

function cdpLauncher(name: string, options: CdpDriverOptions): BrowserLauncher {
  return {
    name,
    async start(): Promise<DriverTransport> {
      const [daemonEnd, driverEnd] = createLinkedTransportPair<DriverMessage, DaemonMessage>();
      // Loaded on first use: a daemon serving only the extension never pays for the CDP driver.
      const { startCdpDriver } = await import('@bproxy/cdp');
      // The driver says hello once its browser is up; the daemon's end keeps it until accepted.
      await startCdpDriver({ ...options, name }, driverEnd);
      return daemonEnd;
    },
  };
}

export function browserLaunchers(choice: BrowserChoice, home: string): BrowserLauncher[] {
  const launchers: BrowserLauncher[] = [];
  if (choice.cdpUrl !== null) launchers.push(cdpLauncher('remote', remoteOptions(choice.cdpUrl)));
  if (choice.attach !== null) launchers.push(cdpLauncher('attached', attachOptions(choice.attach)));
  if (choice.browser !== 'none') {
    const profilesDir = join(home, 'profiles');
    mkdirSync(profilesDir, { recursive: true, mode: 0o700 });
    const headless = choice.browser === 'headless';
    const options: CdpDriverOptions = { mode: 'launch', headless, profilesDir };
    if (process.env.CHROME_PATH) options.executablePath = process.env.CHROME_PATH;
    launchers.push(cdpLauncher(headless ? 'headless' : 'chromium', options));
  }
  return launchers;
}
