/**
 * The daemon process: `node daemon.mjs [--status-fd N] [--implicit] [browser options]`, started
 * detached by `bproxy service start` (or, with --implicit, by a client such as `bproxy mcp`) or in the
 * foreground by hand. It owns process-level concerns only — signals, the idle exit of an implicit
 * daemon, the start report, last-resort error handlers — and leaves the order of startup and cleanup
 * to lifecycle/start-daemon.ts. Every way out (signal, idle) is the same stop: drain, files removed.
 */
import {
  describeError,
  findStatusFd,
  isLifecycleError,
  LifecycleError,
  loadConfig,
  openStartReporter,
  parseDaemonArgs,
  type StartReporter,
} from '@bproxy/client/lifecycle';
import { startDaemon, type RunningDaemon } from './lifecycle/start-daemon';
import { createLogger } from './logs/logger';
import { buildServer } from './http/server';
import { browserChoice, browserLaunchers } from './lifecycle/browser-launchers';

let daemon: RunningDaemon | null = null;
/** A stop (signal, idle) that came while starting: honoured once the daemon is up, so its files are cleaned. */
let stopWhileStarting: string | null = null;
let reporter: StartReporter = openStartReporter(null);

function reportStartFailure(error: unknown): void {
  const lifecycle = isLifecycleError(error)
    ? error
    : new LifecycleError('failed', `daemon failed to start: ${describeError(error)}`);
  reporter.report({ ok: false, kind: lifecycle.kind, message: lifecycle.message });
  process.stderr.write(`bproxy daemon: ${lifecycle.message}\n`);
  process.exitCode = 1;
}

/**
 * Exits by letting the event loop drain rather than with an immediate process.exit, so nothing
 * still being written is cut off; should anything keep the loop alive, the unref'd timer ends it.
 */
function exitSoon(code: number): void {
  process.exitCode = code;
  setTimeout(() => process.exit(code), 2_000).unref();
}

function stopAndExit(reason: string, code: number): void {
  if (!daemon) {
    process.exit(code);
  }
  void daemon.stop(reason).finally(() => exitSoon(code));
}

// A crash must leave a trace: in the log when there is one, else through the start report and stderr.
process.on('uncaughtException', (error) => {
  if (!daemon) {
    reportStartFailure(error);
    process.exit(1);
  }
  daemon.logger.fatal({ event: 'uncaught_exception', err: describeError(error), stack: error.stack });
  daemon.flushLog();
  stopAndExit('uncaught exception', 1);
});
// A stray rejection is a bug but not a reason to drop every session: log it and keep serving.
process.on('unhandledRejection', (reason) => {
  if (daemon) daemon.logger.error({ event: 'unhandled_rejection', err: describeError(reason) });
  else process.stderr.write(`bproxy daemon: unhandled rejection: ${describeError(reason)}\n`);
});
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (daemon) stopAndExit(signal, 0);
    else stopWhileStarting ??= signal;
  });
}

/** An implicit daemon nobody has used for the idle-exit period stops exactly as `service stop` stops it. */
function onIdleExit(idleMs: number): void {
  const reason = `idle for ${Math.round(idleMs / 1000)} s with no agent request`;
  if (!daemon) {
    stopWhileStarting ??= reason;
    return;
  }
  daemon.logger.info({ event: 'idle_exit', idle_ms: idleMs });
  stopAndExit(reason, 0);
}

async function main(): Promise<void> {
  try {
    // The report pipe first, so that even a bad argument reaches the starting parent as a sentence.
    reporter = openStartReporter(findStatusFd(process.argv.slice(2)));
    const args = parseDaemonArgs(process.argv.slice(2));
    const config = loadConfig(process.env);
    const choice = browserChoice(args, process.env);
    daemon = await startDaemon(config, {
      buildServer,
      createLogger,
      launchers: browserLaunchers(choice, config.home),
      browserIdleMs: choice.browserIdleMs,
      allowFiles: args.allowFiles,
      downloadMaxBytes: choice.downloadMaxBytes,
      ...(args.implicit ? { onIdleExit } : {}),
    });
    reporter.report({ ok: true, pid: daemon.pid, port: daemon.port });
    if (stopWhileStarting !== null) stopAndExit(stopWhileStarting, 0);
  } catch (error) {
    reportStartFailure(error);
    // Whatever a half-built server left open must not keep a failed daemon alive.
    process.exit(1);
  }
}

await main();
