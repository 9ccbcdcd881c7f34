/**
 * The daemon process's own arguments. Configuration comes from the environment (config.ts); argv
 * carries only how it was started and which browser to provide — never a secret, since argv is
 * readable by every user on the machine. Browser options given here win over their BPROXY_*
 * variables (resolved by the daemon).
 */
import { isAbsolute } from 'node:path';
import { parseDuration } from './duration';
import { LifecycleError } from './errors';

export type BrowserMode = 'headless' | 'headed' | 'none';

/** A remote CDP endpoint: one browser shared by every session, or one browser per session (a farm). */
export type CdpMode = 'shared' | 'per-session';

export interface DaemonArgs {
  /** Inherited pipe for the start report (start-report.ts); null when run in the foreground. */
  readonly statusFd: number | null;
  /**
   * Started on a client's behalf rather than by a person (`service start`): it stops by itself once no
   * agent has used it for the idle-exit period (BPROXY_IDLE_EXIT).
   */
  readonly implicit: boolean;
  /** The browser the daemon launches when no extension is connected (default headless). */
  readonly browser: BrowserMode | null;
  /** A running Chrome to attach to: its debugging port, its user-data-dir, or a DevTools ws URL. */
  readonly attach: string | null;
  /** A remote CDP endpoint (browser farm); endpoints with credentials belong in the environment. */
  readonly cdpUrl: string | null;
  /** How the remote endpoint is used (default shared). */
  readonly cdpMode: CdpMode | null;
  /** per-session: how many remote browsers may be open at once. */
  readonly cdpMaxBrowsers: number | null;
  /** How long a browser the daemon opened may sit with no tab before it is closed (`5m`, `off`). */
  readonly browserIdle: string | null;
  /**
   * Let the browser the daemon launches load file: URLs (`--allow-file-urls`); null: as
   * BPROXY_ALLOW_FILE_URLS says (default off). Never honoured for the extension, attached or remote browsers.
   */
  readonly allowFileUrls: true | null;
  /**
   * Folders agents may upload files from besides each session's own (`service start --allow-files
   * DIR`, absolute). Refused on an implicit start: only a person's `service start` widens them.
   */
  readonly allowFiles: readonly string[];
  /**
   * Keep the launched browser's user data in BPROXY_HOME/profiles/NAME across launches (`--profile`);
   * null: as BPROXY_PROFILE says (default: a fresh profile each launch).
   */
  readonly profile: string | null;
}

export type BrowserArgs = Omit<DaemonArgs, 'statusFd' | 'implicit'>;

const USAGE =
  'usage: daemon [--status-fd N] [--implicit] [--browser headless|headed|none] [--attach PORT|DIR|URL] [--cdp-url URL] [--cdp-mode shared|per-session] [--cdp-max-browsers N] [--browser-idle PERIOD] [--allow-file-urls] [--profile NAME] [--allow-files DIR]...';

/**
 * A profile name: one folder name under BPROXY_HOME/profiles — letters, digits, `-` and `_`, at most 64,
 * starting with a letter or digit (no `/`, `\\`, `.` or `..`), and not the prefix of the fresh profiles.
 */
export function parseProfileName(name: string, raw: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(raw) || raw.startsWith('bproxy-chromium-'))
    throw new LifecycleError(
      'config',
      `${name} must be a plain name (letters, digits, - and _, at most 64, no path characters), got "${raw}"`,
    );
  return raw;
}

export function parseCdpMode(name: string, raw: string): CdpMode {
  if (raw !== 'shared' && raw !== 'per-session')
    throw new LifecycleError('config', `${name} must be shared or per-session, got "${raw}"`);
  return raw;
}

export function parseMaxBrowsers(name: string, raw: string): number {
  if (!/^[0-9]{1,4}$/.test(raw) || Number(raw) < 1 || Number(raw) > 1000)
    throw new LifecycleError('config', `${name} must be a whole number from 1 to 1000, got "${raw}"`);
  return Number(raw);
}

export function parseDaemonArgs(argv: readonly string[]): DaemonArgs {
  let statusFd: number | null = null;
  let implicit = false;
  let browser: BrowserMode | null = null;
  let attach: string | null = null;
  let cdpUrl: string | null = null;
  let cdpMode: CdpMode | null = null;
  let cdpMaxBrowsers: number | null = null;
  let browserIdle: string | null = null;
  let allowFileUrls: true | null = null;
  const allowFiles: string[] = [];
  let profile: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined) throw new LifecycleError('config', `${arg} needs a value; ${USAGE}`);
      return next;
    };
    switch (arg) {
      case '--status-fd': {
        const raw = value();
        if (!/^[0-9]{1,4}$/.test(raw) || Number(raw) < 3)
          throw new LifecycleError('config', `--status-fd must be a file descriptor >= 3, got "${raw}"`);
        statusFd = Number(raw);
        break;
      }
      case '--implicit':
        implicit = true;
        break;
      case '--browser': {
        const raw = value();
        if (raw !== 'headless' && raw !== 'headed' && raw !== 'none')
          throw new LifecycleError('config', `--browser must be headless, headed or none, got "${raw}"`);
        browser = raw;
        break;
      }
      case '--attach':
        attach = value();
        break;
      case '--cdp-url':
        cdpUrl = value();
        break;
      case '--cdp-mode':
        cdpMode = parseCdpMode('--cdp-mode', value());
        break;
      case '--cdp-max-browsers':
        cdpMaxBrowsers = parseMaxBrowsers('--cdp-max-browsers', value());
        break;
      case '--browser-idle':
        browserIdle = value();
        parseDuration('--browser-idle', browserIdle);
        break;
      case '--allow-file-urls':
        allowFileUrls = true;
        break;
      case '--allow-files': {
        const dir = value();
        if (!isAbsolute(dir))
          throw new LifecycleError('config', `--allow-files needs an absolute folder, got "${dir}"`);
        allowFiles.push(dir);
        break;
      }
      case '--profile':
        profile = parseProfileName('--profile', value());
        break;
      default:
        throw new LifecycleError('config', `unknown daemon argument "${arg}"; ${USAGE}`);
    }
  }
  if (implicit && allowFiles.length > 0)
    throw new LifecycleError(
      'config',
      '--allow-files is for `bproxy service start` by a person, not an implicit start',
    );
  return {
    statusFd,
    implicit,
    browser,
    attach,
    cdpUrl,
    cdpMode,
    cdpMaxBrowsers,
    browserIdle,
    allowFileUrls,
    allowFiles,
    profile,
  };
}

/** The argv `service start` passes on for browser options (the inverse of parseDaemonArgs). */
export function browserArgs(args: Partial<BrowserArgs>): string[] {
  const out: string[] = [];
  const add = (flag: string, value: string | number | null | undefined) => {
    if (value !== null && value !== undefined) out.push(flag, String(value));
  };
  add('--browser', args.browser);
  add('--attach', args.attach);
  add('--cdp-url', args.cdpUrl);
  add('--cdp-mode', args.cdpMode);
  add('--cdp-max-browsers', args.cdpMaxBrowsers);
  add('--browser-idle', args.browserIdle);
  if (args.allowFileUrls === true) out.push('--allow-file-urls');
  for (const dir of args.allowFiles ?? []) out.push('--allow-files', dir);
  add('--profile', args.profile);
  return out;
}

/** The status fd alone, read leniently before full parsing so argument errors can still be reported. */
export function findStatusFd(argv: readonly string[]): number | null {
  const raw = argv[argv.indexOf('--status-fd') + 1];
  if (!argv.includes('--status-fd') || raw === undefined || !/^[0-9]{1,4}$/.test(raw) || Number(raw) < 3)
    return null;
  return Number(raw);
}
