/**
 * `bproxy service start`: spawn the daemon detached (Node on the daemon bundle, see daemonCommand;
 * stdio ignored, no secret in argv) and wait — bounded — for its start report on an inherited
 * pipe. Ready means: the report says so, the port file holds that port, and the PID is our daemon.
 * Then pairing.json gives the pairing code to print.
 *
 * Two starts at once: both may spawn, the lockfile decides, and the loser fails with
 * "a bproxy daemon is already running …" (exit 1), as does any start while a daemon runs — the
 * lifecycle contract says a second start is an error, not a second report of the first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import type { Readable } from 'node:stream';
import {
  browserArgs,
  isOurDaemon,
  loadConfig,
  parseStartReport,
  readPairingFile,
  readPortFile,
  statePaths,
  type DaemonArgs,
  type StartReport,
} from '@bproxy/client/lifecycle';
import { StartOutputSchema } from '@bproxy/protocol';
import { ServiceError } from '../cli-error';
import { IS_BUN, besideCli } from '../runtime';
import { printJson } from '../output';
import { asServiceError } from './service-errors';
import { readStatus } from './status';

const READY_WAIT_MS = 10_000;
const STATUS_FD = 3;

export type StartOutput = ReturnType<typeof StartOutputSchema.parse>;

/**
 * How to run the daemon: `node daemon.mjs`. Under Node that is this very node and the bundle next to
 * this one. The compiled binary has no Node inside, so it runs `node` from PATH (or $BPROXY_NODE) on
 * the daemon.mjs that sits next to the binary itself (or $BPROXY_DAEMON): the daemon is a Node program.
 */
function daemonCommand(): { runtime: string; script: string } {
  const fromEnv = process.env.BPROXY_DAEMON;
  const compiled = IS_BUN;
  const script = fromEnv !== undefined && fromEnv !== '' ? resolvePath(fromEnv) : besideCli('daemon.mjs');
  if (!existsSync(script)) {
    throw new ServiceError(
      compiled
        ? `the daemon bundle is missing (${script}); keep daemon.mjs next to the bproxy binary or set BPROXY_DAEMON`
        : `the daemon bundle is missing (${script}); run \`npm run build\``,
    );
  }
  const node = process.env.BPROXY_NODE;
  const runtime = !compiled ? process.execPath : node !== undefined && node !== '' ? node : 'node';
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
 * Starts the daemon and waits until it is ready; returns the lifecycle contract's start output. Used by
 * `service start` (which prints it) and by `bproxy mcp` (which must keep stdout for the MCP stream).
 */
export async function launchDaemon(
  browser: Pick<DaemonArgs, 'browser' | 'attach' | 'cdpUrl'>,
): Promise<StartOutput> {
  return asServiceError(async () => {
    const config = loadConfig(process.env);
    const paths = statePaths(config.home);
    const status = readStatus(config.home);
    if (status.running) {
      throw new ServiceError(
        `a bproxy daemon is already running for ${config.home} (pid ${status.pid}, port ${status.port})`,
      );
    }
    const daemon = daemonCommand();
    const child = spawn(
      daemon.runtime,
      [daemon.script, '--status-fd', String(STATUS_FD), ...browserArgs(browser)],
      {
        detached: true,
        stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
        // The absolute home goes in the environment: the daemon and `isOurDaemon` both read it there.
        env: { ...process.env, BPROXY_HOME: config.home },
      },
    );
    child.unref();
    const report = await waitForReport(child, paths.logs);
    if (!report.ok) throw new ServiceError(report.message);
    if (readPortFile(paths) !== report.port || !isOurDaemon(report.pid, config.home)) {
      throw new ServiceError(
        `the daemon reported ready on port ${report.port} but ${paths.port} or its process disagrees`,
      );
    }
    const pairing = readPairingFile(paths);
    if (pairing === null) {
      throw new ServiceError(
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
  });
}

export async function serviceStart(
  browser: Pick<DaemonArgs, 'browser' | 'attach' | 'cdpUrl'>,
  pretty: boolean,
): Promise<void> {
  printJson(await launchDaemon(browser), pretty);
}
