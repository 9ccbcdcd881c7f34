/**
 * The daemon process's own arguments. Configuration comes from the environment (config.ts); argv
 * carries only how it was started and which browser to provide — never a secret, since argv is
 * readable by every user on the machine.
 */
import { LifecycleError } from './errors';

export type BrowserMode = 'headless' | 'headed' | 'none';

export interface DaemonArgs {
  /** Inherited pipe for the start report (start-report.ts); null when run in the foreground. */
  readonly statusFd: number | null;
  /** The browser the daemon launches when no extension is connected (default headless). */
  readonly browser: BrowserMode | null;
  /** A running Chrome to attach to: its debugging port, its user-data-dir, or a DevTools ws URL. */
  readonly attach: string | null;
  /** A remote CDP endpoint (browser farm); endpoints with credentials belong in the environment. */
  readonly cdpUrl: string | null;
}

const USAGE =
  'usage: daemon [--status-fd N] [--browser headless|headed|none] [--attach PORT|DIR|URL] [--cdp-url URL]';

export function parseDaemonArgs(argv: readonly string[]): DaemonArgs {
  let statusFd: number | null = null;
  let browser: BrowserMode | null = null;
  let attach: string | null = null;
  let cdpUrl: string | null = null;
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
      default:
        throw new LifecycleError('config', `unknown daemon argument "${arg}"; ${USAGE}`);
    }
  }
  return { statusFd, browser, attach, cdpUrl };
}

/** The argv `service start` passes on for browser options (the inverse of parseDaemonArgs). */
export function browserArgs(args: Pick<DaemonArgs, 'browser' | 'attach' | 'cdpUrl'>): string[] {
  const out: string[] = [];
  if (args.browser !== null) out.push('--browser', args.browser);
  if (args.attach !== null) out.push('--attach', args.attach);
  if (args.cdpUrl !== null) out.push('--cdp-url', args.cdpUrl);
  return out;
}

/** The status fd alone, read leniently before full parsing so argument errors can still be reported. */
export function findStatusFd(argv: readonly string[]): number | null {
  const raw = argv[argv.indexOf('--status-fd') + 1];
  if (!argv.includes('--status-fd') || raw === undefined || !/^[0-9]{1,4}$/.test(raw) || Number(raw) < 3)
    return null;
  return Number(raw);
}
