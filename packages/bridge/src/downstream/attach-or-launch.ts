/**
 * Finding "the" browser for a profile: the user-data-dir is its identity. A running browser on that
 * profile is reused with its own DevTools port (ownership `attached`, never stopped by the bridge);
 * only when there is none does the bridge start one (ownership `launched`). What cannot work is
 * refused with an explanation rather than attempted: a running browser in the other headless mode,
 * a running browser without a DevTools port, and Chrome's default profile, where Chrome 136 and
 * later ignore remote debugging.
 */
import { fetchBrowserWsUrl, resolveBrowserWsUrl } from '@bproxy/cdp/wire';
import type { BrowserHost, BrowserProcess } from './browser-host';
import { isHeadlessCommandLine, switchValue } from './browser-host';

export type Ownership = 'attached' | 'launched';

export interface AcquiredBrowser {
  readonly wsUrl: string;
  readonly ownership: Ownership;
  readonly pid: number | undefined;
  readonly port: number | undefined;
  readonly headless: boolean;
  readonly userDataDir: string | undefined;
}

export interface ProfileTarget {
  readonly host: BrowserHost;
  readonly executablePath: string;
  readonly userDataDir: string;
  readonly headless: boolean;
  /** The tool's switches the argument policy let through. */
  readonly forwardedArgs: readonly string[];
  readonly timeoutMs: number;
}

/**
 * Told, as they happen, what an acquisition does: the watchdog learns of a launch before the browser
 * exists, so that a bridge killed at any moment of it leaves nothing running.
 */
export interface LaunchObserver {
  /** No browser runs on the profile: one is about to be started. */
  launching(): void;
  /** The process started (its pid; it may not listen yet). */
  spawned(pid: number): void;
  /** A browser already runs on the profile: it is attached to, never the bridge's to stop. */
  attached(pid: number): void;
}

export type AcquireFailure = 'default-profile' | 'mode-mismatch' | 'profile-busy' | 'launch-failed';

export class AcquireError extends Error {
  override readonly name = 'AcquireError';
  constructor(
    readonly reason: AcquireFailure,
    message: string,
  ) {
    super(message);
  }
}

const CHROME_136_HINT =
  'Chrome 136 and later ignore --remote-debugging-port on the default profile (so that a page cannot ' +
  'take over your everyday browser). Use a dedicated profile: set BPROXY_BRIDGE_USER_DATA_DIR to ' +
  'another directory (copy your profile there to keep its logins).';

export function launchArgs(target: ProfileTarget, runningAsRoot: boolean): string[] {
  const own = [
    `--user-data-dir=${target.userDataDir}`,
    '--remote-debugging-port=0',
    '--no-first-run',
    '--no-default-browser-check',
  ];
  if (target.headless) own.push('--headless');
  // Chromium refuses to start as root with its sandbox on (containers, CI); never asked of by a tool.
  if (runningAsRoot) own.push('--no-sandbox');
  const switches = target.forwardedArgs.filter((arg) => arg.startsWith('-') && !own.includes(arg));
  const pages = target.forwardedArgs.filter((arg) => !arg.startsWith('-'));
  return [...own, ...switches, ...pages];
}

function instanceProfile(proc: BrowserProcess): string | undefined {
  return switchValue(proc.args, '--user-data-dir');
}

export async function findProfileInstance(target: ProfileTarget): Promise<BrowserProcess | undefined> {
  return (await target.host.list()).find((proc) => {
    const profile = instanceProfile(proc);
    // A browser started without --user-data-dir runs on the default profile, which is never a target.
    return profile !== undefined && target.host.sameProfile(profile, target.userDataDir);
  });
}

async function attach(target: ProfileTarget, proc: BrowserProcess): Promise<AcquiredBrowser> {
  const { host } = target;
  const running = isHeadlessCommandLine(proc.args);
  if (running !== target.headless) {
    throw new AcquireError(
      'mode-mismatch',
      `the profile ${target.userDataDir} is open in a ${running ? 'headless' : 'headed'} browser (pid ${proc.pid}) ` +
        `but a ${target.headless ? 'headless' : 'headed'} one was asked for; one profile runs one browser, and the ` +
        'bridge does not swap a visible browser for a hidden one or the reverse. Close that browser, use another ' +
        `profile (BPROXY_BRIDGE_USER_DATA_DIR), or set BPROXY_BRIDGE_HEADLESS=${running} to use it as it is.`,
    );
  }
  const portSwitch = switchValue(proc.args, '--remote-debugging-port');
  if (portSwitch === undefined) {
    throw new AcquireError(
      'profile-busy',
      `the profile ${target.userDataDir} is open in a browser (pid ${proc.pid}) started without ` +
        '--remote-debugging-port: the bridge can neither attach to it nor start a second browser on the same ' +
        'profile. Close it (the bridge then starts one with a DevTools port) or use another profile.',
    );
  }
  const active = await host.readActivePort(target.userDataDir);
  const port = active?.port ?? (Number(portSwitch) > 0 ? Number(portSwitch) : undefined);
  const base = port === undefined ? undefined : `http://${host.debuggerHost}:${port}`;
  let wsUrl: string | undefined;
  if (base !== undefined) {
    try {
      wsUrl = await fetchBrowserWsUrl(base, 5_000);
    } catch {
      wsUrl = undefined;
    }
  }
  if (port === undefined || wsUrl === undefined) {
    throw new AcquireError(
      'profile-busy',
      `the browser on ${target.userDataDir} (pid ${proc.pid}) was started with --remote-debugging-port but ` +
        `its DevTools endpoint does not answer${base === undefined ? '' : ` at ${base}`}. Close it and let the ` +
        'bridge start one, or use another profile.',
    );
  }
  return {
    wsUrl: onHost(wsUrl, host.debuggerHost, port),
    ownership: 'attached',
    pid: proc.pid,
    port,
    headless: running,
    userDataDir: target.userDataDir,
  };
}

/** Chrome names 127.0.0.1 in its URLs; from WSL the browser may live at another address. */
function onHost(wsUrl: string, host: string, port: number): string {
  const url = new URL(wsUrl);
  url.hostname = host;
  url.port = String(port);
  return url.toString();
}

async function launch(target: ProfileTarget, observer: LaunchObserver | undefined): Promise<AcquiredBrowser> {
  const { host } = target;
  await host.removeActivePort(target.userDataDir);
  // Root matters only for a browser on this machine; Windows Chrome runs as the Windows user.
  const asRoot = host.kind === 'local' && process.getuid?.() === 0;
  observer?.launching();
  const launched = await host.launch(target.executablePath, launchArgs(target, asRoot));
  if (launched.pid > 0) observer?.spawned(launched.pid);
  let wsUrl: string;
  try {
    wsUrl =
      launched.listening !== undefined
        ? await fromStderr(target, launched.listening, launched.exited)
        : await fromPortFile(target);
  } catch (error) {
    // Never leave behind a browser that cannot be used.
    await host.stop(launched.pid).catch(() => undefined);
    throw error;
  }
  const port = Number(new URL(wsUrl).port);
  return {
    wsUrl: onHost(wsUrl, host.debuggerHost, port),
    ownership: 'launched',
    pid: launched.pid,
    port,
    headless: target.headless,
    userDataDir: target.userDataDir,
  };
}

function launchFailed(target: ProfileTarget, detail: string): AcquireError {
  return new AcquireError('launch-failed', `${target.executablePath} did not start: ${detail}`);
}

/** This machine: Chrome says on stderr where it listens, or why it will not, or it exits. */
async function fromStderr(
  target: ProfileTarget,
  listening: Promise<{ url: string } | { refused: string }>,
  exited: Promise<string> | undefined,
): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const outcome = await Promise.race([
    listening,
    (exited ?? new Promise<string>(() => undefined)).then((tail) => ({ exited: tail || '(no output)' })),
    new Promise<{ timeout: true }>(
      (done) => (timer = setTimeout(() => done({ timeout: true }), target.timeoutMs)),
    ),
  ]);
  clearTimeout(timer);
  if ('url' in outcome) return outcome.url;
  if ('refused' in outcome) {
    throw new AcquireError(
      'default-profile',
      `the browser ignored its DevTools port ("${outcome.refused}"). ${CHROME_136_HINT}`,
    );
  }
  if ('exited' in outcome) throw launchFailed(target, outcome.exited);
  throw launchFailed(target, `no DevTools endpoint within ${target.timeoutMs} ms`);
}

/** WSL: no stderr to read; the port file appears once Chrome listens, and the port must be reachable. */
async function fromPortFile(target: ProfileTarget): Promise<string> {
  const { host } = target;
  const deadline = performance.now() + target.timeoutMs;
  for (;;) {
    const active = await host.readActivePort(target.userDataDir);
    if (active !== undefined) {
      const base = `http://${host.debuggerHost}:${active.port}`;
      try {
        await fetchBrowserWsUrl(base, 5_000);
      } catch {
        throw new AcquireError(
          'launch-failed',
          `Chrome listens on port ${active.port} but ${base} cannot be reached from here: turn on WSL ` +
            'mirrored networking (networkingMode=mirrored in .wslconfig) or set BPROXY_BRIDGE_WSL_HOST ' +
            'to the address Windows is reached at.',
        );
      }
      return `ws://${host.debuggerHost}:${active.port}${active.path}`;
    }
    if (performance.now() > deadline) {
      throw launchFailed(
        target,
        `no DevToolsActivePort in ${target.userDataDir} within ${target.timeoutMs} ms (on Chrome's default ` +
          'profile, Chrome 136+ never writes one)',
      );
    }
    await new Promise((done) => setTimeout(done, 250));
  }
}

export async function attachOrLaunch(
  target: ProfileTarget,
  observer?: LaunchObserver,
): Promise<AcquiredBrowser> {
  const defaults = await target.host.chromeDefaultProfiles();
  if (defaults.some((d) => target.host.sameProfile(d, target.userDataDir))) {
    throw new AcquireError(
      'default-profile',
      `${target.userDataDir} is Chrome's default profile. ${CHROME_136_HINT}`,
    );
  }
  const running = await findProfileInstance(target);
  if (running === undefined) return launch(target, observer);
  observer?.attached(running.pid);
  return attach(target, running);
}

/** A remote DevTools endpoint: never launched, never stopped, always `attached`. */
export async function connectRemote(cdpUrl: string, timeoutMs: number): Promise<AcquiredBrowser> {
  const wsUrl = await resolveBrowserWsUrl({ wsUrl: cdpUrl }, timeoutMs);
  return {
    wsUrl,
    ownership: 'attached',
    pid: undefined,
    port: undefined,
    headless: false,
    userDataDir: undefined,
  };
}
