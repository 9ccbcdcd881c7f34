/**
 * What a terminal runs, and with which environment. The program is the user's choice: the host's
 * BPROXY_TERMINAL_COMMAND (a program and its arguments separated by spaces, no quoting), else `claude`
 * when it is on PATH (claude.cmd on Windows, as npm installs it), else the user's shell — $SHELL, or
 * /bin/zsh on macOS, /bin/sh elsewhere; PowerShell or cmd.exe on Windows — started as an interactive
 * shell, not a login one, whose profile would set PATH anew and drop the `bproxy` put first on it. The
 * environment is the host's (the browser's, plus what the launcher set) with BPROXY_HOME, and
 * BPROXY_SESSION naming the session of the terminal's tab, so that `bproxy` (a small launcher for this
 * installation's CLI, put first on PATH) and agents started there drive that tab; and BPROXY_TERMINAL
 * naming the terminal, whose file says the tab's session when it changed since (terminal-session.ts).
 */
import { accessSync, chmodSync, constants, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TERMINAL_VAR, type Env } from '@bproxy/client';
import { TERMINAL_AGENT_VAR } from '@bproxy/protocol/plain';

export const TERMINAL_COMMAND_VAR = 'BPROXY_TERMINAL_COMMAND';
/** How long a terminal no panel shows lives, in ms (default 60 s); for tests that prove it lives on. */
export const TERMINAL_DETACH_VAR = 'BPROXY_TERMINAL_DETACH_MS';

/** BPROXY_TERMINAL_DETACH_MS when it is a whole number of ms from 1 s to 10 min, else undefined. */
export function detachMsOf(env: Env): number | undefined {
  const raw = env[TERMINAL_DETACH_VAR];
  if (raw === undefined || !/^[0-9]{4,6}$/.test(raw)) return undefined;
  const ms = Number(raw);
  return ms >= 1_000 && ms <= 600_000 ? ms : undefined;
}

/** Whether `file` is there and this user may run it. */
export function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The platform and file checks the choice depends on: injectable, so every branch is tested anywhere. */
export interface HostPlatform {
  readonly platform: NodeJS.Platform;
  readonly isExecutable: (file: string) => boolean;
}

const THIS_PLATFORM: HostPlatform = { platform: process.platform, isExecutable: isExecutableFile };

/** The path module of `platform` (Windows paths, ';' between PATH entries). */
const pathOf = (platform: NodeJS.Platform): path.PlatformPath =>
  platform === 'win32' ? path.win32 : path.posix;

/**
 * The first executable `name` on `searchPath`, or null. On Windows, with each extension of PATHEXT
 * (default .COM;.EXE;.BAT;.CMD) as the shell finds programs: npm installs `claude` as claude.cmd.
 */
export function onPath(
  name: string,
  searchPath: string | undefined,
  host: HostPlatform = THIS_PLATFORM,
  pathExt?: string,
): string | null {
  const p = pathOf(host.platform);
  const names =
    host.platform === 'win32'
      ? (pathExt ?? '.COM;.EXE;.BAT;.CMD')
          .split(';')
          .filter((ext) => ext !== '')
          .map((ext) => `${name}${ext.toLowerCase()}`)
      : [name];
  for (const dir of (searchPath ?? '').split(p.delimiter)) {
    if (dir === '' || !p.isAbsolute(dir)) continue;
    for (const candidate of names) {
      const file = p.join(dir, candidate);
      if (host.isExecutable(file)) return file;
    }
  }
  return null;
}

/** cmd.exe: %ComSpec%, else the one in %SystemRoot%. */
function cmdExe(env: Env): string {
  const comSpec = env.ComSpec ?? env.COMSPEC;
  if (comSpec !== undefined && comSpec !== '') return comSpec;
  return path.win32.join(env.SystemRoot ?? env.SYSTEMROOT ?? 'C:\\Windows', 'System32', 'cmd.exe');
}

/**
 * The shell a terminal falls back to. Windows: PowerShell 7 (pwsh) when on PATH, else Windows
 * PowerShell where Windows keeps it, else cmd.exe. macOS: $SHELL, else /bin/zsh (its default shell).
 * Linux and the rest: $SHELL, else /bin/sh.
 */
export function fallbackShell(env: Env, host: HostPlatform = THIS_PLATFORM): readonly [string, ...string[]] {
  if (host.platform === 'win32') {
    const pwsh = onPath('pwsh', env.PATH ?? env.Path, host, '.EXE');
    if (pwsh !== null) return [pwsh, '-NoLogo'];
    const windowsPowerShell = path.win32.join(
      env.SystemRoot ?? env.SYSTEMROOT ?? 'C:\\Windows',
      'System32',
      'WindowsPowerShell',
      'v1.0',
      'powershell.exe',
    );
    if (host.isExecutable(windowsPowerShell)) return [windowsPowerShell, '-NoLogo'];
    return [cmdExe(env)];
  }
  const shell = env.SHELL;
  if (shell !== undefined && path.posix.isAbsolute(shell) && host.isExecutable(shell)) return [shell];
  return [host.platform === 'darwin' ? '/bin/zsh' : '/bin/sh'];
}

/** The program and arguments a new terminal runs. */
export function terminalCommand(
  env: Env,
  host: HostPlatform = THIS_PLATFORM,
): readonly [string, ...string[]] {
  const chosen = (env[TERMINAL_COMMAND_VAR] ?? '')
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '');
  const [program, ...args] = chosen;
  if (program !== undefined) return [program, ...args];
  const claude = onPath('claude', env.PATH ?? env.Path, host, env.PATHEXT);
  if (claude !== null) {
    // A batch file (npm's claude.cmd) runs through cmd.exe; /k keeps the terminal open after it.
    if (host.platform === 'win32' && /\.(cmd|bat)$/i.test(claude)) return [cmdExe(env), '/d', '/k', claude];
    return [claude];
  }
  return fallbackShell(env, host);
}

/** Single-quoted for sh. */
function quoted(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The text and file name of the `bproxy` launcher: a sh script, or a batch file on Windows. */
export function cliLauncher(
  cli: readonly string[],
  platform: NodeJS.Platform = process.platform,
): { name: string; text: string } {
  if (platform === 'win32')
    return { name: 'bproxy.cmd', text: `@${cli.map((word) => `"${word}"`).join(' ')} %*\r\n` };
  return { name: 'bproxy', text: `#!/bin/sh\nexec ${cli.map(quoted).join(' ')} "$@"\n` };
}

/**
 * Writes BPROXY_HOME/host/bin/bproxy (bproxy.cmd on Windows), which runs this installation's CLI with
 * the host's Node, and returns its folder (null when the CLI bundle is unknown). Rewritten at each
 * spawn: an upgrade moves the bundle.
 */
export function writeCliLauncher(
  home: string,
  cli: readonly string[] | undefined,
  platform: NodeJS.Platform = process.platform,
): string | null {
  if (cli === undefined || cli.length === 0) return null;
  const dir = path.join(home, 'host', 'bin');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const launcher = cliLauncher(cli, platform);
  const file = path.join(dir, launcher.name);
  writeFileSync(file, launcher.text, { mode: 0o700 });
  chmodSync(file, 0o700);
  return dir;
}

export interface TerminalEnvOptions {
  readonly env: Env;
  readonly home: string;
  readonly session: string | undefined;
  /** A folder to put first on PATH (the CLI launcher's). */
  readonly binDir: string | null;
  /** The terminal: BPROXY_TERMINAL names it, for `bproxy` to read the tab's session now. */
  readonly termId?: string;
}

export function terminalEnv(options: TerminalEnvOptions): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(options.env)) if (value !== undefined) out[key] = value;
  // Not inherited: a terminal without a session of its own must not drive another one's tab.
  delete out.BPROXY_SESSION;
  delete out[TERMINAL_VAR];
  delete out[TERMINAL_COMMAND_VAR];
  out.BPROXY_HOME = options.home;
  // `bproxy` run here says it is the side panel's Terminal (the Activity names it so).
  out[TERMINAL_AGENT_VAR] = 'terminal';
  if (options.session !== undefined) out.BPROXY_SESSION = options.session;
  if (options.termId !== undefined) out[TERMINAL_VAR] = options.termId;
  out.TERM = 'xterm-256color';
  out.COLORTERM = 'truecolor';
  const search = out.PATH ?? '/usr/local/bin:/usr/bin:/bin';
  out.PATH = options.binDir === null ? search : `${options.binDir}${path.delimiter}${search}`;
  return out;
}
