/**
 * The daemon process's own arguments. Configuration comes from the environment (config.ts); argv
 * carries only how it was started and which browser to provide — never a secret, since argv is
 * readable by every user on the machine.
 */
import { LifecycleError } from './errors';

export type BrowserMode = 'headless' | 'none';

export interface DaemonArgs {
  /** Inherited pipe for the start report (start-report.ts); null when run in the foreground. */
  readonly statusFd: number | null;
  /** Which browser the daemon provides when no extension is connected (filled in by the CDP work). */
  readonly browser: BrowserMode | null;
  /** Attach to a local Chrome instead of launching one. */
  readonly attach: boolean;
  /** A remote CDP endpoint (browser farm); endpoints with credentials belong in the environment. */
  readonly cdpUrl: string | null;
}

const USAGE = 'usage: daemon [--status-fd N] [--browser headless|none] [--attach] [--cdp-url URL]';

export function parseDaemonArgs(argv: readonly string[]): DaemonArgs {
  let statusFd: number | null = null;
  let browser: BrowserMode | null = null;
  let attach = false;
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
        if (raw !== 'headless' && raw !== 'none')
          throw new LifecycleError('config', `--browser must be headless or none, got "${raw}"`);
        browser = raw;
        break;
      }
      case '--attach':
        attach = true;
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
  if (args.attach) out.push('--attach');
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
