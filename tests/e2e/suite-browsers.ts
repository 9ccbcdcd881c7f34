/**
 * Chromium processes seen from outside for the driver suites: finding a browser by its
 * user-data-dir (the main process, or every process that is left), and a Chromium started by the
 * test itself with --remote-debugging-port=0, for the daemon to attach to or reach by its ws URL.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromePath, until } from './extension-harness';

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

export interface DebuggableChromium {
  userDataDir: string;
  pid: number;
  port: number;
  /** The browser's DevTools ws URL (ws://127.0.0.1:PORT/devtools/browser/ID). */
  wsUrl: string;
  /** The process runs and its DevTools endpoint answers. */
  alive(): Promise<boolean>;
  close(): Promise<void>;
}

/** A headless Chromium of the test's own, reachable on a free debugging port. */
export async function startDebuggableChromium(): Promise<DebuggableChromium> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'bproxy-e2e-attach-'));
  const child = spawn(
    chromePath(),
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--remote-debugging-port=0',
      `--user-data-dir=${userDataDir}`,
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const pid = child.pid;
  if (pid === undefined) throw new Error('Chromium did not start');
  const close = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const done = await Promise.race([exited.then(() => true), delay(5_000).then(() => false)]);
      if (!done) {
        child.kill('SIGKILL');
        await exited;
      }
    }
    // Helpers outlive the browser process by a moment and still write into the profile.
    await until('the profile to be free', () => chromiumPidsUsing(userDataDir).length === 0).catch(() => {});
    // Removing the profile is housekeeping, not the check: the caller asserts that no Chromium process
    // is left (expectNoChromiumLeft), which names what still runs. Under load a child process can
    // still be flushing into the profile here; a temp folder left behind must not fail the file.
    try {
      rmSync(userDataDir, { recursive: true, force: true, maxRetries: 15, retryDelay: 200 });
    } catch (error) {
      process.stderr.write(`note: could not remove ${userDataDir}: ${String(error)}\n`);
    }
  };
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

/** A bounded wait used only as a fallback deadline in close(), never to synchronize. */
function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
