/**
 * Daemon configuration from the environment. Every variable is parsed, never coerced: a value we do
 * not understand is a LifecycleError that names the variable and what it accepts.
 */
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { DEFAULT_PORT } from '@bproxy/protocol/plain';
import { parseDuration } from './duration';
import { LifecycleError } from './errors';

/** How long an implicitly started daemon waits without agents before it stops (BPROXY_IDLE_EXIT). */
export const DEFAULT_IDLE_EXIT_MS = 15 * 60_000;

export const LOG_LEVEL_NAMES = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevelName = (typeof LOG_LEVEL_NAMES)[number];

export interface DaemonConfig {
  /** Absolute path of the state directory. */
  readonly home: string;
  /** TCP port on 127.0.0.1; 0 lets the system choose (the chosen one is written to the port file). */
  readonly port: number;
  readonly logLevel: LogLevelName;
  /**
   * A daemon started implicitly (`--implicit`: by `bproxy mcp`, a native host) stops after this long
   * with no agent request; null (`off`) keeps it up. A daemon started by `service start` ignores it.
   */
  readonly idleExitMs: number | null;
  /**
   * How long a tab of the user's Chrome may go without an agent action before the extension takes
   * the debugger off it (BPROXY_DEBUGGER_IDLE; null, `off`: kept attached while driven).
   */
  readonly debuggerIdleMs: number | null;
}

export type Env = Readonly<Record<string, string | undefined>>;

/** The state directory: BPROXY_HOME or ~/.bproxy, always absolute. */
export function resolveHome(env: Env, home: () => string = homedir): string {
  const raw = env.BPROXY_HOME;
  if (raw === undefined || raw === '') return join(home(), '.bproxy');
  return isAbsolute(raw) ? raw : resolve(raw);
}

export function parsePort(raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_PORT;
  if (!/^[0-9]{1,5}$/.test(raw)) {
    throw new LifecycleError(
      'config',
      `BPROXY_PORT must be a port number from 0 to 65535 (0 = any free port), got "${raw}"`,
    );
  }
  const port = Number(raw);
  if (port > 65535) {
    throw new LifecycleError(
      'config',
      `BPROXY_PORT must be a port number from 0 to 65535 (0 = any free port), got "${raw}"`,
    );
  }
  return port;
}

export function parseLogLevel(raw: string | undefined): LogLevelName {
  if (raw === undefined || raw === '') return 'info';
  const level = LOG_LEVEL_NAMES.find((name) => name === raw);
  if (level === undefined) {
    throw new LifecycleError(
      'config',
      `BPROXY_LOG_LEVEL must be one of ${LOG_LEVEL_NAMES.join(', ')}, got "${raw}"`,
    );
  }
  return level;
}

/**
 * BPROXY_EXTENSION_ID is no longer read: it let a daemon started by one part accept another
 * extension than a daemon started by another. The trusted ids are one setting (extension-ids.ts);
 * a value set here is refused rather than silently ignored.
 */
export function refuseExtensionIdVariable(raw: string | undefined): void {
  if (raw === undefined || raw === '') return;
  throw new LifecycleError(
    'config',
    'BPROXY_EXTENSION_ID is no longer read: trust an extension id with `bproxy host install --extension-id ID` (kept in BPROXY_HOME/extensions.json), then unset the variable',
  );
}

export function parseIdleExit(raw: string | undefined): number | null {
  if (raw === undefined || raw === '') return DEFAULT_IDLE_EXIT_MS;
  return parseDuration('BPROXY_IDLE_EXIT', raw);
}

/** The "being debugged" bar leaves a tab no agent has acted in for this long. */
export const DEFAULT_DEBUGGER_IDLE_MS = 10_000;

export function parseDebuggerIdle(raw: string | undefined): number | null {
  if (raw === undefined || raw === '') return DEFAULT_DEBUGGER_IDLE_MS;
  return parseDuration('BPROXY_DEBUGGER_IDLE', raw);
}

export function loadConfig(env: Env = process.env): DaemonConfig {
  refuseExtensionIdVariable(env.BPROXY_EXTENSION_ID);
  return {
    home: resolveHome(env),
    port: parsePort(env.BPROXY_PORT),
    logLevel: parseLogLevel(env.BPROXY_LOG_LEVEL),
    idleExitMs: parseIdleExit(env.BPROXY_IDLE_EXIT),
    debuggerIdleMs: parseDebuggerIdle(env.BPROXY_DEBUGGER_IDLE),
  };
}
