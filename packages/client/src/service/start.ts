/**
 * Starting the daemon (`bproxy service start`, and the implicit start of long-lived clients): spawn it
 * detached (Node on the daemon bundle, see daemonCommand; stdio ignored, no secret in argv) and wait —
 * bounded — for its start report on an inherited pipe. Ready means: the report says so, the port file
 * holds that port, and the PID is our daemon. Then pairing.json gives the pairing code.
 *
 * Two starts at once: both may spawn, the lockfile decides, and the loser fails with
 * "a bproxy daemon is already running …", as does any start while a daemon runs — the lifecycle
 * contract says a second start is an error, not a second report of the first. Failures are
 * LifecycleErrors: plain sentences for people.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import type { Readable } from 'node:stream';
import { StartOutputSchema } from '@bproxy/protocol';
import { loadConfig, type Env } from '../lifecycle/config';
import { browserArgs, type BrowserArgs } from '../lifecycle/daemon-args';
import { LifecycleError } from '../lifecycle/errors';
import { readPairingFile } from '../lifecycle/pairing-file';
import { statePaths } from '../lifecycle/paths';
import { readPortFile } from '../lifecycle/port-file';
import { isOurDaemon } from '../lifecycle/process-identity';
import { parseStartReport, type StartReport } from '../lifecycle/start-report';
import { IS_BUN } from '../runtime';
import { daemonStatus } from './status';

const READY_WAIT_MS = 10_000;
const STATUS_FD = 3;

export type StartOutput = ReturnType<typeof StartOutputSchema.parse>;

export interface StartOptions extends Partial<BrowserArgs> {
  /** The daemon bundle (daemon.mjs) shipped with the calling program; $BPROXY_DAEMON overrides it. */
  readonly script: string;
  /**
   * Started for a client that needs one (`bproxy mcp`, a native host), not by a person: the daemon
   * stops by itself after BPROXY_IDLE_EXIT without agents. Default false: it stays until stopped.
   */
  readonly implicit?: boolean;
  /** The environment the daemon starts with (BPROXY_HOME, BPROXY_PORT, …); default process.env. */
  readonly env?: Env;
}

/**
 * How to run the daemon: `node daemon.mjs`. Under Node that is this very node. A Bun-compiled program
 * has no Node inside, so it runs `node` from PATH (or $BPROXY_NODE): the daemon is a Node program.
 */
function daemonCommand(options: StartOptions, env: Env): { runtime: string; script: string } {
  const fromEnv = env.BPROXY_DAEMON;
  const script = fromEnv !== undefined && fromEnv !== '' ? resolvePath(fromEnv) : options.script;
  if (!existsSync(script)) {
    throw new LifecycleError(
      'failed',
      IS_BUN
        ? `the daemon bundle is missing (${script}); keep daemon.mjs next to the bproxy binary or set BPROXY_DAEMON`
        : `the daemon bundle is missing (${script}); run \`npm run build\``,
    );
  }
  const node = env.BPROXY_NODE;
  const runtime = !IS_BUN ? process.execPath : node !== undefined && node !== '' ? node : 'node';
  return { runtime, script };
}

/** The daemon's one-line report, or a sentence saying why none came. */
function waitForReport(child: ChildProcess, logs: string): Promise<StartReport> {
  return new Promise((resolve) => {
    const pipe = child.stdio[STATUS_FD] as Readable | null | undefined;
    let buffered = '';
    let settled = false;
    const finish = (report: StartReport) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      pipe?.destroy();
      resolve(report);
    };
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      finish({
        ok: false,
        kind: 'failed',
        message: `the daemon did not become ready within ${READY_WAIT_MS / 1000} s (see ${logs})`,
      });
    }, READY_WAIT_MS);
    pipe?.setEncoding('utf8');
    pipe?.on('data', (chunk: string) => {
      buffered += chunk;
      const newline = buffered.indexOf('\n');
      if (newline < 0) return;
      const report = parseStartReport(buffered.slice(0, newline));
      finish(report ?? { ok: false, kind: 'failed', message: 'the daemon sent an unreadable start report' });
    });
    child.on('error', (error) =>
      finish({
        ok: false,
        kind: 'failed',
        message: `cannot run the daemon: ${error.message} (it needs Node.js >= 20: install it or set BPROXY_NODE)`,
      }),
    );
    // A daemon that dies without a report: wait for both its exit and the end of the pipe, so that a
    // report written just before exiting is never mistaken for silence.
    let exitedAs: string | null = null;
    let pipeClosed = pipe === null || pipe === undefined;
    const diedSilently = () => {
      if (exitedAs !== null && pipeClosed)
        finish({
          ok: false,
          kind: 'failed',
          message: `the daemon exited (${exitedAs}) before it was ready (see ${logs})`,
        });
    };
    pipe?.on('close', () => {
      pipeClosed = true;
      diedSilently();
    });
    child.on('exit', (code, signal) => {
      exitedAs = signal ?? `code ${code}`;
      diedSilently();
    });
  });
}

/**
 * How the daemon is spawned: in a process group of its own (it outlives the command that started it)
 * and, on Windows, without a console window of its own (a detached process gets one otherwise).
 */
export const DAEMON_SPAWN = { detached: true, windowsHide: true } as const;

/**
 * Starts the daemon and waits until it is ready; answers the lifecycle contract's start output (what
 * `bproxy service start` prints). Throws a LifecycleError with a sentence for people.
 */
export async function startDaemon(options: StartOptions): Promise<StartOutput> {
  const env = options.env ?? process.env;
  const config = loadConfig(env);
  const paths = statePaths(config.home);
  const status = daemonStatus(env);
  if (status.running) {
    throw new LifecycleError(
      'already-running',
      `a bproxy daemon is already running for ${config.home} (pid ${status.pid}, port ${status.port})`,
    );
  }
  const daemon = daemonCommand(options, env);
  const { script: _script, env: _env, implicit, cdpUrl, ...browser } = options;
  const argv = [daemon.script, '--status-fd', String(STATUS_FD), ...browserArgs(browser)];
  if (implicit === true) argv.push('--implicit');
  const child = spawn(daemon.runtime, argv, {
    ...DAEMON_SPAWN,
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    // The absolute home goes in the environment: the daemon and `isOurDaemon` both read it there. So
    // does a CDP URL: farm URLs carry tokens, and a long-lived daemon's argv is readable by every user.
    env: { ...env, BPROXY_HOME: config.home, ...(cdpUrl ? { BPROXY_CDP_URL: cdpUrl } : {}) },
  });
  child.unref();
  const report = await waitForReport(child, paths.logs);
  if (!report.ok) throw new LifecycleError(report.kind, report.message);
  if (readPortFile(paths) !== report.port || !isOurDaemon(report.pid, config.home)) {
    throw new LifecycleError(
      'failed',
      `the daemon reported ready on port ${report.port} but ${paths.port} or its process disagrees`,
    );
  }
  const pairing = readPairingFile(paths);
  if (pairing === null) {
    throw new LifecycleError(
      'failed',
      `the daemon is running (pid ${report.pid}, port ${report.port}) but its pairing code was already claimed`,
    );
  }
  return StartOutputSchema.parse({
    running: true,
    pid: report.pid,
    port: report.port,
    pairingCode: pairing.pairingCode,
    pairingExpiresAt: pairing.pairingExpiresAt,
  });
}
