/**
 * The browsers the daemon can start itself, from `service start` options (argv) or the environment
 * (BPROXY_BROWSER, BPROXY_ATTACH, BPROXY_CDP_URL, BPROXY_CDP_MODE, BPROXY_CDP_MAX_BROWSERS,
 * BPROXY_BROWSER_IDLE, BPROXY_ALLOW_FILE_URLS — argv wins). The first launcher is the default one, started on first use when
 * no extension is connected: a configured remote endpoint (shared, or one browser per session), else
 * an attached Chrome, else the embedded headless Chromium. Each runs the CDP driver in-process over a
 * linked transport pair, so the daemon sees it as one more client.
 */
import { mkdirSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { createLinkedTransportPair, type DaemonMessage, type DriverMessage } from '@bproxy/protocol';
import type { CdpDriverOptions } from '@bproxy/cdp';
import {
  type BrowserArgs,
  type CdpMode,
  type Env,
  LifecycleError,
  parseCdpMode,
  parseDuration,
  parseMaxBrowsers,
  parseProfileName,
} from '@bproxy/client/lifecycle';
import { assertProfileFree, profileFolder } from './profiles';
import { ensureDownloadStaging } from '../files/downloads';
import { DEFAULT_DOWNLOAD_MAX_BYTES } from '@bproxy/protocol';
import type { BrowserLauncher, LaunchOptions, StartedBrowser } from '../server-options';

/** A browser with no tab for this long is closed (a launched one, or a session's farm browser). */
export const DEFAULT_BROWSER_IDLE_MS = 5 * 60_000;
/** Remote browsers a per-session endpoint may hand out at once unless told otherwise. */
export const DEFAULT_MAX_BROWSERS = 5;

export interface BrowserChoice {
  browser: 'headless' | 'headed' | 'none';
  attach: string | null;
  cdpUrl: string | null;
  cdpMode: CdpMode;
  maxBrowsers: number;
  /** null: never closed for idleness. */
  browserIdleMs: number | null;
  /** The launched browser (only it) may load file: URLs. */
  allowFileUrls: boolean;
  /** The launched browser keeps its user data in BPROXY_HOME/profiles/NAME; null: a fresh profile. */
  profile: string | null;
  /** Largest download kept (BPROXY_DOWNLOAD_MAX_BYTES, default 100 MiB). */
  downloadMaxBytes: number;
}

/** BPROXY_DOWNLOAD_MAX_BYTES: a whole number of bytes, 1 or more; unset or empty: the default. */
export function envDownloadMaxBytes(raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_DOWNLOAD_MAX_BYTES;
  if (!/^[0-9]{1,15}$/.test(raw) || Number(raw) < 1)
    throw new LifecycleError('config', `BPROXY_DOWNLOAD_MAX_BYTES must be a number of bytes, got "${raw}"`);
  return Number(raw);
}

/** BPROXY_ALLOW_FILE_URLS: 1 or true turns it on; unset, empty, 0 or false leave it off. */
function envAllowFileUrls(raw: string | undefined): boolean {
  if (raw === undefined || raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new LifecycleError('config', `BPROXY_ALLOW_FILE_URLS must be 1, true, 0 or false, got "${raw}"`);
}

export function browserChoice(args: BrowserArgs, env: Env): BrowserChoice {
  const browser = args.browser ?? (env.BPROXY_BROWSER || 'headless');
  if (browser !== 'headless' && browser !== 'headed' && browser !== 'none') {
    throw new LifecycleError('config', `BPROXY_BROWSER must be headless, headed or none, got "${browser}"`);
  }
  const cdpUrl = args.cdpUrl ?? (env.BPROXY_CDP_URL || null);
  const cdpMode =
    args.cdpMode ?? (env.BPROXY_CDP_MODE ? parseCdpMode('BPROXY_CDP_MODE', env.BPROXY_CDP_MODE) : 'shared');
  const maxBrowsers =
    args.cdpMaxBrowsers ??
    (env.BPROXY_CDP_MAX_BROWSERS
      ? parseMaxBrowsers('BPROXY_CDP_MAX_BROWSERS', env.BPROXY_CDP_MAX_BROWSERS)
      : DEFAULT_MAX_BROWSERS);
  if (cdpUrl === null && (args.cdpMode !== null || args.cdpMaxBrowsers !== null))
    throw new LifecycleError('config', '--cdp-mode and --cdp-max-browsers need a CDP URL (--cdp-url)');
  const browserIdleMs =
    args.browserIdle !== null
      ? parseDuration('--browser-idle', args.browserIdle)
      : env.BPROXY_BROWSER_IDLE
        ? parseDuration('BPROXY_BROWSER_IDLE', env.BPROXY_BROWSER_IDLE)
        : DEFAULT_BROWSER_IDLE_MS;
  const allowFileUrls = args.allowFileUrls === true || envAllowFileUrls(env.BPROXY_ALLOW_FILE_URLS);
  if (allowFileUrls && browser === 'none')
    throw new LifecycleError(
      'config',
      '--allow-file-urls is for a browser bproxy launches (--browser headless or headed), and --browser none launches none: your own Chrome (the extension) and attached or remote browsers never open file: URLs',
    );
  const profile =
    args.profile ?? (env.BPROXY_PROFILE ? parseProfileName('BPROXY_PROFILE', env.BPROXY_PROFILE) : null);
  if (profile !== null && browser === 'none')
    throw new LifecycleError(
      'config',
      '--profile is for a browser bproxy launches (--browser headless or headed), and --browser none launches none',
    );
  return {
    allowFileUrls,
    profile,
    downloadMaxBytes: envDownloadMaxBytes(env.BPROXY_DOWNLOAD_MAX_BYTES),
    browser,
    attach: args.attach ?? (env.BPROXY_ATTACH || null),
    cdpUrl,
    cdpMode,
    maxBrowsers,
    browserIdleMs,
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

/** Starts the CDP driver in-process on `options`: the daemon's end of its link, and the driver's close. */
async function startDriver(options: CdpDriverOptions, launch: LaunchOptions): Promise<StartedBrowser> {
  const [daemonEnd, driverEnd] = createLinkedTransportPair<DriverMessage, DaemonMessage>();
  // Loaded on first use: a daemon serving only the extension never pays for the CDP driver.
  const { startCdpDriver } = await import('@bproxy/cdp');
  // The driver says hello once its browser is up; the daemon's end keeps it until accepted.
  const driver = await startCdpDriver(
    {
      ...options,
      name: launch.name,
      connectTimeoutMs: launch.connectTimeoutMs,
      ...(launch.instanceId === undefined ? {} : { instanceId: launch.instanceId }),
    },
    driverEnd,
  );
  // The driver closes its browser when the daemon closes the link; its close() is that same close.
  return { link: daemonEnd, stop: () => driver.close() };
}

export function browserLaunchers(choice: BrowserChoice, home: string): BrowserLauncher[] {
  const launchers: BrowserLauncher[] = [];
  if (choice.cdpUrl !== null) {
    const options = remoteOptions(choice.cdpUrl);
    const start = (launch: LaunchOptions) => startDriver(options, launch);
    launchers.push(
      choice.cdpMode === 'per-session'
        ? { name: 'remote', kind: 'per-session', maxBrowsers: choice.maxBrowsers, start }
        : { name: 'remote', kind: 'remote', start },
    );
  }
  if (choice.attach !== null) {
    const options = attachOptions(choice.attach);
    launchers.push({ name: 'attached', kind: 'attached', start: (launch) => startDriver(options, launch) });
  }
  if (choice.browser !== 'none') {
    const profilesDir = join(home, 'profiles');
    mkdirSync(profilesDir, { recursive: true, mode: 0o700 });
    const headless = choice.browser === 'headless';
    const options: CdpDriverOptions = { mode: 'launch', headless, profilesDir };
    if (process.env.CHROME_PATH) options.executablePath = process.env.CHROME_PATH;
    if (choice.allowFileUrls) options.allowFileUrls = true;
    // Its downloads go to the daemon's staging folder; the daemon files them in the sessions' folders.
    options.downloads = { dir: ensureDownloadStaging(home), maxBytes: choice.downloadMaxBytes };
    const profile = choice.profile;
    if (profile !== null) options.userDataDir = profileFolder(home, profile);
    launchers.push({
      name: headless ? 'headless' : 'chromium',
      kind: 'launched',
      start: (launch) => {
        // Checked at every launch: the lock is a running browser's, which may come and go.
        if (profile !== null && options.userDataDir !== undefined)
          assertProfileFree(options.userDataDir, profile);
        return startDriver(options, launch);
      },
      ...(choice.allowFileUrls ? { allowFileUrls: true } : {}),
    });
  }
  return launchers;
}
