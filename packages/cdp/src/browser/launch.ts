/**
 * Starting our own Chromium: a fresh profile directory, CDP over --remote-debugging-pipe, and a stop
 * that leaves nothing behind. Orphans: Chromium shuts itself down when the pipe's other end closes
 * (verified with Chromium 156: SIGKILL of the parent → all browser processes gone within 2 s), and the
 * kernel closes that end whatever way this process dies; the 'exit' hook covers a normal exit that
 * skipped close().
 *
 * Closing is bounded and never throws: Browser.close, then the process's exit awaited for at most
 * `CLOSE_BOUNDS.exitMs`; a browser still running then is killed (SIGKILL) and its exit awaited for at
 * most `killMs`; then the fresh profile is removed, retried for at most `removeMs` while Chromium's
 * last helpers finish writing in it, and left behind (the caller can read that) rather than failing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { CdpConnection } from '../cdp/connection';
import { createPipeTransport } from '../cdp/pipe-transport';

export interface LaunchOptions {
  executablePath: string;
  headless: boolean;
  /** Parent of the fresh profile directory (default: the OS temp dir). */
  profilesDir?: string;
  /** Use this exact profile directory instead of a fresh one; it is kept on stop. */
  userDataDir?: string;
  args?: readonly string[];
  timeoutMs: number;
  /** Bounds of close() (default CLOSE_BOUNDS). */
  closeBounds?: Partial<CloseBounds>;
}

export interface LaunchedBrowser {
  connection: CdpConnection;
  pid: number | undefined;
  userAgent: string;
  /**
   * Closes the browser (politely, then by force) and removes a fresh profile, within the sum of
   * CLOSE_BOUNDS; never rejects.
   */
  close(): Promise<CloseOutcome>;
}

/** How long each step of close() may take; close() as a whole takes at most their sum. */
export interface CloseBounds {
  /** From Browser.close to the process's exit. */
  exitMs: number;
  /** From SIGKILL to the exit being reported. */
  killMs: number;
  /** Retrying the removal of a fresh profile that Chromium's helpers are still writing in. */
  removeMs: number;
}

export const CLOSE_BOUNDS: Readonly<CloseBounds> = { exitMs: 3_000, killMs: 2_000, removeMs: 2_000 };

/** What close() did: whether the process had to be killed, and whether anything was left behind. */
export interface CloseOutcome {
  killed: boolean;
  /** The browser process did not report its exit even after SIGKILL. */
  stillRunning: boolean;
  /** A fresh profile that could not be removed in time (left in place), with why. */
  profileLeft?: { path: string; reason: string };
}

export function chromeArgs(options: {
  headless: boolean;
  userDataDir: string;
  args?: readonly string[];
}): string[] {
  const args = [
    '--remote-debugging-pipe',
    `--user-data-dir=${options.userDataDir}`,
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-default-apps',
    '--disable-quic',
    '--disable-features=Translate,MediaRouter,OptimizationHints',
    '--password-store=basic',
    '--use-mock-keychain',
    '--mute-audio',
  ];
  if (options.headless) args.push('--headless', '--disable-gpu');
  // Chromium refuses to start as root with its sandbox on (containers, CI).
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  args.push(...(options.args ?? []), 'about:blank');
  return args;
}

export async function launchChrome(options: LaunchOptions): Promise<LaunchedBrowser> {
  const fresh = options.userDataDir === undefined;
  const userDataDir =
    options.userDataDir ?? (await mkdtemp(join(options.profilesDir ?? tmpdir(), 'bproxy-chromium-')));
  const child = spawn(
    options.executablePath,
    chromeArgs({ headless: options.headless, userDataDir, args: options.args }),
    {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
    },
  );
  const stderrTail = collectTail(child);
  let spawnFailure: Error | undefined;
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    child.once('exit', () => resolve());
    // A binary that could not be spawned emits 'error' and never 'exit'.
    child.once('error', (error) => {
      spawnFailure = new Error(`could not start ${options.executablePath}: ${error.message}`);
      resolve();
    });
  });
  const killOnExit = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  const bounds = { ...CLOSE_BOUNDS, ...options.closeBounds };
  const cleanup = async (): Promise<CloseOutcome['profileLeft']> => {
    process.removeListener('exit', killOnExit);
    return fresh ? removeWithin(userDataDir, bounds.removeMs) : undefined;
  };
  const startupExit = (): Error =>
    spawnFailure ??
    new Error(
      `${options.executablePath} exited during startup (code ${child.exitCode ?? child.signalCode}): ${stderrTail()}`,
    );
  const toBrowser = child.stdio[3] as Writable;
  const fromBrowser = child.stdio[4] as Readable;
  const connection = new CdpConnection(createPipeTransport(toBrowser, fromBrowser));
  let userAgent: string;
  try {
    const quit = exited.then(() => Promise.reject(startupExit()));
    quit.catch(() => undefined);
    const version = await Promise.race([
      connection.send('Browser.getVersion', {}, { timeoutMs: options.timeoutMs }),
      quit,
    ]);
    userAgent = version.userAgent;
  } catch (error) {
    // The pipe usually closes a moment before 'exit' is reported: the exit says more than the pipe.
    if (connection.closed) await settlesWithin(exited, 1_000);
    const quitAlone = spawnFailure !== undefined || child.exitCode !== null || child.signalCode !== null;
    child.kill('SIGKILL');
    await settlesWithin(exited, 3_000);
    await cleanup();
    throw quitAlone ? startupExit() : error;
  }
  // The pipe can close before 'exit' fires; whichever comes first ends the connection.
  void exited.then(() => connection.close());

  let closing: Promise<CloseOutcome> | undefined;
  const close = async (): Promise<CloseOutcome> => {
    const started = Date.now();
    if (!connection.closed)
      await connection.send('Browser.close', {}, { timeoutMs: bounds.exitMs }).catch(() => undefined);
    connection.close();
    let killed = false;
    let stillRunning = false;
    if (!(await settlesWithin(exited, Math.max(0, bounds.exitMs - (Date.now() - started))))) {
      killed = true;
      child.kill('SIGKILL');
      stillRunning = !(await settlesWithin(exited, bounds.killMs));
    }
    const profileLeft = await cleanup();
    return { killed, stillRunning, ...(profileLeft === undefined ? {} : { profileLeft }) };
  };
  return {
    connection,
    pid: child.pid,
    userAgent,
    close() {
      closing ??= close().catch((error: unknown): CloseOutcome => ({
        killed: false,
        stillRunning: child.exitCode === null && child.signalCode === null,
        profileLeft: { path: userDataDir, reason: String(error) },
      }));
      return closing;
    },
  };
}

/**
 * Removes a folder, retrying while something still writes in it (ENOTEMPTY, EBUSY), for at most
 * `withinMs`; answers what was left instead of throwing.
 */
export async function removeWithin(
  path: string,
  withinMs: number,
): Promise<{ path: string; reason: string } | undefined> {
  const deadline = Date.now() + withinMs;
  for (let wait = 50; ; wait = Math.min(wait * 2, 400)) {
    try {
      await rm(path, { recursive: true, force: true });
      return undefined;
    } catch (error) {
      const left = deadline - Date.now();
      if (left <= 0) return { path, reason: String(error) };
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait, left)));
    }
  }
}

function collectTail(child: ChildProcess): () => string {
  let tail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-2000);
  });
  return () => tail.trim().split('\n').slice(-5).join(' | ') || '(no output)';
}

async function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const result = await Promise.race([promise.then(() => true as const), timeout]);
  clearTimeout(timer);
  return result;
}
