/**
 * Runs the built `bproxy` as a real process against a fresh temporary BPROXY_HOME. Each test file
 * builds the bundles once into its own temporary directory (build() from packages/cli/build.mjs), so
 * files running in parallel never race on dist/. Every call has a hard timeout; daemons started by a
 * test are found through their homes and killed in cleanup — only processes that are verifiably a
 * daemon of one of our temporary homes.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isOurDaemon, parsePidFile, processState } from '@bproxy/client/lifecycle';
import { build } from '../../build.mjs';

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface Harness {
  readonly cli: string;
  /** A fresh state directory (0700), removed in cleanup. */
  home(): string;
  run(
    args: readonly string[],
    options?: { home?: string; env?: Record<string, string>; timeoutMs?: number },
  ): Promise<CliRun>;
  /** SIGKILLs every daemon still running for a home this harness created, and removes the homes. */
  cleanup(): Promise<void>;
}

export async function createHarness(): Promise<Harness> {
  const outdir = mkdtempSync(join(tmpdir(), 'bproxy-cli-build-'));
  const built = await build({ outdir });
  const homes: string[] = [];
  return {
    cli: built.cli,
    home() {
      const home = mkdtempSync(join(tmpdir(), 'bproxy-home-'));
      homes.push(home);
      return home;
    },
    run(args, options = {}) {
      const env: Record<string, string> = {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? tmpdir(),
        BPROXY_PORT: '0',
        ...options.env,
      };
      if (options.home !== undefined) env.BPROXY_HOME = options.home;
      return new Promise((resolve) => {
        execFile(
          process.execPath,
          [built.cli, ...args],
          { env, timeout: options.timeoutMs ?? 20_000, killSignal: 'SIGKILL' },
          (error, stdout, stderr) => {
            const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
            resolve({ code, stdout, stderr });
          },
        );
      });
    },
    async cleanup() {
      for (const home of homes) {
        await killDaemonOf(home);
        rmSync(home, { recursive: true, force: true });
      }
      rmSync(outdir, { recursive: true, force: true });
    },
  };
}

/** Kills the daemon of `home` if bproxy.pid names one; never a process that is not our daemon. */
export async function killDaemonOf(home: string): Promise<void> {
  let pid: number | null = null;
  try {
    pid = parsePidFile(readFileSync(join(home, 'bproxy.pid'), 'utf8'));
  } catch {
    return;
  }
  if (pid === null || !isOurDaemon(pid, home)) return;
  process.kill(pid, 'SIGKILL');
  await waitFor(() => processState(pid) === 'dead', 5_000);
}

/** Bounded poll for a condition owned by another process (its exit, a file it writes). */
export async function waitFor(condition: () => boolean, withinMs: number): Promise<void> {
  const until = Date.now() + withinMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`condition not met within ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export function parseJsonLine(text: string): unknown {
  return JSON.parse(text.trim());
}
