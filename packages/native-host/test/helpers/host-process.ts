/**
 * The real host as a process: the bundles are built once per test file into a temporary folder
 * (packages/cli/build.mjs, as `npm run build` does, so the host finds daemon.mjs beside it), and each
 * host is spawned with real pipes, as a browser spawns it. Every byte it writes on stdout is kept, so
 * tests can check that stdout carries frames and nothing else. Hosts still running at cleanup are
 * killed (they are our children), and so are daemons they started — only after checking that the pid
 * is a daemon of one of our temporary homes.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isOurDaemon, parsePidFile, processState } from '@bproxy/client/lifecycle';
import { DEFAULT_EXTENSION_ID } from '@bproxy/protocol';
import { build } from '../../../cli/build.mjs';
import { browserEnd, type BrowserEnd } from './port';

export const OUR_ORIGIN = `chrome-extension://${DEFAULT_EXTENSION_ID}/`;

export interface Bundles {
  readonly dir: string;
  readonly nativeHost: string;
  readonly daemon: string;
}

export async function buildBundles(): Promise<Bundles> {
  const dir = mkdtempSync(join(tmpdir(), 'bproxy-host-build-'));
  const built = await build({ outdir: dir });
  // The PTY's native addon stays outside the bundle and resolves from node_modules, as it does beside
  // packages/cli/dist: give the temporary folder the repository's.
  symlinkSync(join(__dirname, '..', '..', '..', '..', 'node_modules'), join(dir, 'node_modules'), 'dir');
  return { dir, nativeHost: built.nativeHost, daemon: built.daemon };
}

export { withVersion } from '../../../../tests/kit/versions';

export interface HostProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly browser: BrowserEnd;
  /** Everything the host wrote on stdout, in order. */
  stdout(): Buffer;
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running = new Set<ChildProcessWithoutNullStreams>();

export function spawnHost(
  command: readonly string[],
  args: readonly string[],
  env: Record<string, string>,
): HostProcess {
  const [program, ...rest] = command;
  if (program === undefined) throw new Error('no command');
  const child = spawn(program, [...rest, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  running.add(child);
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stdin.on('error', () => undefined);
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    });
  });
  return { child, browser: browserEnd(child.stdin, child.stdout), stdout: () => Buffer.concat(chunks), exit };
}

/** An exit within `ms`, or a failure naming what was awaited. */
export async function exitWithin(
  host: HostProcess,
  ms: number,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the host did not exit within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([host.exit, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Bounded poll for a condition another process owns. */
export async function waitFor(condition: () => boolean, withinMs: number): Promise<void> {
  const until = Date.now() + withinMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`condition not met within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function daemonPidOf(home: string): number | null {
  try {
    return parsePidFile(readFileSync(join(home, 'bproxy.pid'), 'utf8'));
  } catch {
    return null;
  }
}

/** Kills leftover hosts, and the daemon of each home if one runs there; removes the folders. */
export async function cleanup(homes: readonly string[], bundles: Bundles | null): Promise<void> {
  for (const child of running) child.kill('SIGKILL');
  for (const home of homes) {
    const pid = daemonPidOf(home);
    if (pid !== null && isOurDaemon(pid, home)) {
      process.kill(pid, 'SIGKILL');
      await waitFor(() => processState(pid) === 'dead', 5_000);
    }
    rmSync(home, { recursive: true, force: true });
  }
  if (bundles !== null) rmSync(bundles.dir, { recursive: true, force: true });
}
