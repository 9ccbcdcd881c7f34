/**
 * Chromium for the tests, in one place: which binary (CHROME_PATH, else Debian's), the flags every
 * test browser starts with, the browser's processes found by their profile in /proc, a Chromium the
 * test starts itself on a free debugging port, and teardown that is bounded and awaited — the process
 * exit waited for with a deadline, SIGKILL after it, then the profile removed with a short bounded
 * retry, never a throw from a teardown. The package tests (`*.browser.test.ts`) and the e2e suites
 * both start their browsers through here.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { until } from './wait';

const CANDIDATES = ['/usr/lib/chromium/chromium', '/usr/bin/chromium', '/usr/bin/google-chrome'];

/** The Chromium the tests run: CHROME_PATH when it exists, else the first installed candidate. */
export function chromiumPath(): string {
  const found = [process.env.CHROME_PATH, ...CANDIDATES].find((p): p is string => !!p && existsSync(p));
  if (found === undefined) throw new Error('no Chromium found: set CHROME_PATH');
  return found;
}

/**
 * The flags every test browser starts with: headless, no sandbox (containers run as root), and none
 * of the background traffic that would make a test depend on the network.
 */
export const CHROMIUM_FLAGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** How long each step of a test browser's close may take; the close takes at most their sum. */
export const CLOSE_BOUNDS = { exitMs: 5_000, killMs: 2_000, removeMs: 2_000 } as const;

interface ProcessInfo {
  pid: number;
  args: string[];
}

function processes(): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
      out.push({ pid: Number(entry), args });
    } catch {
      // The process ended while we looked.
    }
  }
  return out;
}

function usesDir(info: ProcessInfo, dir: string): boolean {
  return info.args.some((a) => a.startsWith('--user-data-dir=') && a.includes(dir));
}

/** Every process (browser, renderers, helpers) whose --user-data-dir lies under `dir`. */
export function chromiumPidsUsing(dir: string): number[] {
  return processes()
    .filter((p) => usesDir(p, dir))
    .map((p) => p.pid);
}

/** The browser process itself (not a renderer or helper) whose profile lies under `dir`. */
export function browserPidUsing(dir: string): number | undefined {
  return processes().find((p) => usesDir(p, dir) && !p.args.some((a) => a.startsWith('--type=')))?.pid;
}

/** Waits until no Chromium process uses a profile under any of `dirs`; throws naming what is left. */
export async function expectNoChromiumLeft(dirs: readonly string[], timeoutMs = 10_000): Promise<void> {
  try {
    await until(
      'every Chromium process to exit',
      () => dirs.every((d) => chromiumPidsUsing(d).length === 0),
      timeoutMs,
    );
  } catch {
    const left = dirs.flatMap((d) => chromiumPidsUsing(d));
    throw new Error(`Chromium processes left behind: ${left.join(', ')}`);
  }
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves true when `promise` settles within `ms`, false when the time is up first. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const settled = promise.then(
    () => true as const,
    () => true as const,
  );
  const result = await Promise.race([settled, timeout]);
  clearTimeout(timer);
  return result;
}

/**
 * Removes a folder, retrying while a browser's last helpers still write in it, for at most `withinMs`;
 * then leaves it with a note on stderr. Never throws: a temporary folder left behind must not fail a
 * file whose assertions all held (the no-process-left checks are the assertions).
 */
export async function removeProfile(dir: string, withinMs: number = CLOSE_BOUNDS.removeMs): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (let wait = 50; ; wait = Math.min(wait * 2, 400)) {
    try {
      await rm(dir, { recursive: true, force: true });
      return;
    } catch (error) {
      const left = deadline - Date.now();
      if (left <= 0) {
        process.stderr.write(`note: could not remove ${dir}: ${String(error)}\n`);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait, left)));
    }
  }
}

/**
 * Closes a browser within bounds and never throws: `polite()` (Browser.close, a library's close, a
 * signal) is given `exitMs` to end every process using `profile`; what is left then is SIGKILLed and
 * waited for up to `killMs`; then the profile is removed (`removeMs`) unless `keepProfile`.
 */
export async function closeBrowserWithin(
  profile: string,
  polite: () => Promise<unknown>,
  options: { keepProfile?: boolean; bounds?: Partial<typeof CLOSE_BOUNDS> } = {},
): Promise<void> {
  const bounds = { ...CLOSE_BOUNDS, ...options.bounds };
  const started = Date.now();
  await settlesWithin(
    polite().catch(() => undefined),
    bounds.exitMs,
  );
  const gone = (): boolean => chromiumPidsUsing(profile).length === 0;
  const rest = Math.max(0, bounds.exitMs - (Date.now() - started));
  if (
    !(await until('the browser to exit', gone, rest).then(
      () => true,
      () => false,
    ))
  ) {
    for (const pid of chromiumPidsUsing(profile)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // It ended meanwhile.
      }
    }
    await until('the killed browser to exit', gone, bounds.killMs).catch(() => {
      process.stderr.write(`note: Chromium processes of ${profile} still run after SIGKILL\n`);
    });
  }
  if (options.keepProfile !== true) await removeProfile(profile, bounds.removeMs);
}

/**
 * Stops a child process within bounds, never throwing: `signal` (SIGTERM by default), its exit awaited
 * for at most `CLOSE_BOUNDS.exitMs`, then SIGKILL and at most `killMs` more.
 */
export async function stopChildWithin(
  child: ChildProcess,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  if (await settlesWithin(exited, CLOSE_BOUNDS.exitMs)) return;
  child.kill('SIGKILL');
  await settlesWithin(exited, CLOSE_BOUNDS.killMs);
}

export interface DebuggableChromium {
  userDataDir: string;
  pid: number;
  port: number;
  /** The browser's DevTools ws URL (ws://127.0.0.1:PORT/devtools/browser/ID). */
  wsUrl: string;
  process: ChildProcess;
  /** The process runs and its DevTools endpoint answers. */
  alive(): Promise<boolean>;
  /** SIGTERM, then SIGKILL after a bound; the profile removed; bounded, never throws. */
  close(): Promise<void>;
}

/**
 * A headless Chromium of the test's own, as a user would start one: --remote-debugging-port=0 and its
 * own profile, for a driver to attach to or reach by its ws URL.
 */
export async function startDebuggableChromium(
  options: { prefix?: string; headless?: boolean } = {},
): Promise<DebuggableChromium> {
  const userDataDir = mkdtempSync(join(tmpdir(), options.prefix ?? 'bproxy-test-attach-'));
  const flags =
    options.headless === false ? CHROMIUM_FLAGS.filter((f) => f !== '--headless') : CHROMIUM_FLAGS;
  const child = spawn(
    chromiumPath(),
    [...flags, '--remote-debugging-port=0', `--user-data-dir=${userDataDir}`, 'about:blank'],
    { stdio: 'ignore' },
  );
  const pid = child.pid;
  if (pid === undefined) throw new Error('Chromium did not start');
  const close = (): Promise<void> => closeBrowserWithin(userDataDir, () => stopChildWithin(child));
  try {
    // Chromium writes "PORT\n/devtools/browser/ID" once it listens.
    const { port, path } = await until(
      'DevToolsActivePort',
      () => {
        const [first, second] = readFileSync(join(userDataDir, 'DevToolsActivePort'), 'utf8')
          .trim()
          .split('\n');
        return second?.startsWith('/devtools/browser/') ? { port: Number(first), path: second } : undefined;
      },
      20_000,
    );
    return {
      userDataDir,
      pid,
      port,
      wsUrl: `ws://127.0.0.1:${port}${path}`,
      process: child,
      async alive() {
        if (!isRunning(pid)) return false;
        const res = await fetch(`http://127.0.0.1:${port}/json/version`).catch(() => undefined);
        return res?.ok === true;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

export interface LaunchedChromium {
  context: BrowserContext;
  /** The profile folder (the tests check no Chromium process is left using it). */
  userDataDir: string;
  /** Closes within CLOSE_BOUNDS and removes the profile (unless it was given); never throws. */
  close(): Promise<void>;
}

export interface LaunchChromiumOptions {
  /** The profile folder (default: a fresh temporary one, removed on close). */
  userDataDir?: string;
  /** More flags after CHROMIUM_FLAGS. */
  args?: readonly string[];
  /** Flags of Playwright's own to leave out (e.g. --disable-extensions). */
  ignoreDefaultArgs?: string[];
  /** The browser's environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
  viewport?: { width: number; height: number };
  /** Remove the profile on close even when it was given (default: only a fresh one). */
  removeProfile?: boolean;
  /**
   * Headed on this X display (tests/kit/xvfb.ts), with a DevTools port of its own (`/json/list`,
   * DevToolsActivePort in the profile) for the targets Playwright does not list: the headed tier.
   */
  display?: string;
}

/** Headless Chromium driven through playwright-core (a persistent context on a profile of ours). */
export async function launchChromium(options: LaunchChromiumOptions = {}): Promise<LaunchedChromium> {
  const userDataDir = options.userDataDir ?? mkdtempSync(join(tmpdir(), 'bproxy-test-chromium-'));
  const remove = options.removeProfile ?? options.userDataDir === undefined;
  const close = (): Promise<void> =>
    closeBrowserWithin(userDataDir, () => context?.close() ?? Promise.resolve(), { keepProfile: !remove });
  let context: BrowserContext | undefined;
  const headed = options.display !== undefined;
  const env = headed ? { ...(options.env ?? process.env), DISPLAY: options.display } : options.env;
  const flags = headed
    ? [...CHROMIUM_FLAGS.filter((f) => f !== '--headless'), '--remote-debugging-port=0']
    : CHROMIUM_FLAGS;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: chromiumPath(),
      headless: !headed,
      timeout: 30_000,
      ...(env === undefined ? {} : { env }),
      ...(options.viewport === undefined ? {} : { viewport: options.viewport }),
      ...(options.ignoreDefaultArgs === undefined ? {} : { ignoreDefaultArgs: options.ignoreDefaultArgs }),
      args: [...flags, ...(options.args ?? [])],
    });
  } catch (error) {
    await close();
    throw error;
  }
  return { context, userDataDir, close };
}
