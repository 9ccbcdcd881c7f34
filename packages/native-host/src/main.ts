/**
 * The host process around runHost: stdout is taken for the frames before anything can print, host.log
 * is opened in BPROXY_HOME/host, SIGTERM and SIGINT stop the host as a closed port does, and an
 * uncaught failure is logged (never printed) before the process exits non-zero. Whichever way the
 * process exits, every terminal's session is SIGKILLed first, synchronously: nothing a terminal
 * started outlives the host.
 */
import { join } from 'node:path';
import { resolveHome } from '@bproxy/client/lifecycle';
import type { AgentMessage, HandlerFactory, TerminalMessage } from './handlers';
import { HostLogFile, hostDir } from './host-log';
import { runHost } from './run-host';
import { takeStdout } from './stdout-guard';
import { killEveryTerminalNow } from './terminal/pty-process';
import { cliLauncher, writeCliLauncher } from './terminal/terminal-command';

export interface HostMainOptions {
  /** The daemon bundle (dist/daemon.mjs beside the host bundle). */
  readonly daemonScript: string;
  readonly agent?: HandlerFactory<AgentMessage>;
  readonly terminal?: HandlerFactory<TerminalMessage>;
  /** This installation's CLI (node and bproxy.mjs): its launcher is written at start, for the popup. */
  readonly bproxyCommand?: readonly string[];
}

/** Writes BPROXY_HOME/host/bin/bproxy (terminal-command.ts) and returns its path; null when it cannot. */
function launcherPath(home: string, cli: readonly string[] | undefined, log: HostLogFile): string | null {
  try {
    const dir = writeCliLauncher(home, cli);
    return dir === null ? null : join(dir, cliLauncher(cli ?? []).name);
  } catch (error) {
    log.error('cli_launcher_failed', { reason: error instanceof Error ? error.message : String(error) });
    return null;
  }
}

export async function hostMain(options: HostMainOptions): Promise<never> {
  const env = process.env;
  const log = new HostLogFile({ dir: hostDir(resolveHome(env)) });
  const stdout = takeStdout(log);
  const fatal = (kind: string) => (error: unknown) => {
    log.error(kind, { reason: error instanceof Error ? error.message : String(error) });
    killEveryTerminalNow();
    log.close();
    process.exit(1);
  };
  process.on('uncaughtException', fatal('uncaught_exception'));
  process.on('unhandledRejection', fatal('unhandled_rejection'));
  const stop = new AbortController();
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => stop.abort(signal));

  const code = await runHost({
    cliLauncher: launcherPath(resolveHome(env), options.bproxyCommand, log),
    argv: process.argv.slice(2),
    stdin: process.stdin,
    stdout,
    env,
    log,
    daemonScript: options.daemonScript,
    agent: options.agent,
    terminal: options.terminal,
    signal: stop.signal,
  });
  // The port closed: the terminals had their SIGHUP and grace; what is left (a close that timed out)
  // goes now.
  killEveryTerminalNow();
  log.close();
  process.exit(code);
}
