/**
 * What a terminal runs, and with which environment. The program is the user's choice: the host's
 * BPROXY_TERMINAL_COMMAND (a program and its arguments separated by spaces, no quoting), else `claude`
 * when it is on PATH, else the user's login shell ($SHELL, or /bin/sh) — started as an interactive
 * shell, not a login one, whose profile would set PATH anew and drop the `bproxy` put first on it. The
 * environment is the host's (the browser's, plus what the launcher set) with BPROXY_HOME, and
 * BPROXY_SESSION naming the session of the terminal's tab, so that `bproxy` (a small launcher for this
 * installation's CLI, put first on PATH) and agents started there drive that tab.
 */
import { accessSync, chmodSync, constants, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { Env } from '@bproxy/client';

export const TERMINAL_COMMAND_VAR = 'BPROXY_TERMINAL_COMMAND';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable `name` on `path`, or null. */
export function onPath(name: string, path: string | undefined): string | null {
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    if (executable(candidate)) return candidate;
  }
  return null;
}

/** The program and arguments a new terminal runs. */
export function terminalCommand(env: Env): readonly [string, ...string[]] {
  const chosen = (env[TERMINAL_COMMAND_VAR] ?? '')
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '');
  const [program, ...args] = chosen;
  if (program !== undefined) return [program, ...args];
  const claude = onPath('claude', env.PATH);
  if (claude !== null) return [claude];
  const shell =
    env.SHELL !== undefined && isAbsolute(env.SHELL) && executable(env.SHELL) ? env.SHELL : '/bin/sh';
  return [shell];
}

/** Single-quoted for sh. */
function quoted(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * Writes BPROXY_HOME/host/bin/bproxy, which runs this installation's CLI with the host's Node, and
 * returns its folder (null when the CLI bundle is unknown). Rewritten at each spawn: an upgrade moves
 * the bundle.
 */
export function writeCliLauncher(home: string, cli: readonly string[] | undefined): string | null {
  if (cli === undefined || cli.length === 0) return null;
  const dir = join(home, 'host', 'bin');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, 'bproxy');
  writeFileSync(file, `#!/bin/sh\nexec ${cli.map(quoted).join(' ')} "$@"\n`, { mode: 0o700 });
  chmodSync(file, 0o700);
  return dir;
}

export interface TerminalEnvOptions {
  readonly env: Env;
  readonly home: string;
  readonly session: string | undefined;
  /** A folder to put first on PATH (the CLI launcher's). */
  readonly binDir: string | null;
}

export function terminalEnv(options: TerminalEnvOptions): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(options.env)) if (value !== undefined) out[key] = value;
  // Not inherited: a terminal without a session of its own must not drive another one's tab.
  delete out.BPROXY_SESSION;
  delete out[TERMINAL_COMMAND_VAR];
  out.BPROXY_HOME = options.home;
  if (options.session !== undefined) out.BPROXY_SESSION = options.session;
  out.TERM = 'xterm-256color';
  out.COLORTERM = 'truecolor';
  const path = out.PATH ?? '/usr/local/bin:/usr/bin:/bin';
  out.PATH = options.binDir === null ? path : `${options.binDir}${delimiter}${path}`;
  return out;
}
