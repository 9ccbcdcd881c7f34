/**
 * The side panel Terminal's check: the program it will run — the one baked into the native host's
 * launcher (`--terminal-command`), else `claude` when on PATH, else your shell — exists and can be run.
 * The same choice the host makes (terminal-command.ts), read from the launcher this install wrote.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import {
  TERMINAL_COMMAND_VAR,
  hostFiles,
  isExecutableFile,
  onPath,
  registrationContext,
  terminalCommand,
} from '@bproxy/native-host/registration';
import { type Check, type DoctorContext, fail, ok } from './checks';

/** The Terminal's program the launcher sets, or null (none chosen, or no launcher). */
function chosenCommand(launcher: string): string | null {
  let text: string;
  try {
    text = readFileSync(launcher, 'utf8');
  } catch {
    return null;
  }
  const sh = new RegExp(`^${TERMINAL_COMMAND_VAR}='((?:[^']|'\\\\'')*)'$`, 'm').exec(text)?.[1];
  if (sh !== undefined) return sh.replaceAll(`'\\''`, "'");
  const bat = new RegExp(`^set "${TERMINAL_COMMAND_VAR}=([^"]*)"\\r?$`, 'm').exec(text)?.[1];
  return bat === undefined ? null : bat.replaceAll('%%', '%');
}

export function terminalChecks(context: DoctorContext): Check[] {
  let launcher: string | null = null;
  try {
    launcher = hostFiles(registrationContext({ env: context.env })).launcher;
  } catch {
    launcher = null;
  }
  const chosen = launcher === null ? null : chosenCommand(launcher);
  const env: Record<string, string | undefined> = { ...context.env, [TERMINAL_COMMAND_VAR]: chosen ?? '' };
  const [program] = terminalCommand(env);
  const found = isAbsolute(program)
    ? isExecutableFile(program)
      ? program
      : null
    : onPath(program, env.PATH);
  const claude = chosen === null && onPath('claude', env.PATH, undefined, env.PATHEXT) !== null;
  const what =
    chosen !== null
      ? `the chosen program "${chosen}"`
      : claude
        ? 'Claude Code (`claude`, found on PATH)'
        : 'your shell (no `claude` on PATH)';
  if (found === null)
    return [
      fail(
        'terminal',
        'program',
        `the Terminal would run ${what}, and ${program} is not found${isAbsolute(program) ? '' : ' on PATH'}`,
        chosen !== null
          ? `install ${program}, or choose another: \`bproxy setup --terminal-command "PROGRAM ARGS"\``
          : 'set SHELL to an installed shell, or choose a program: `bproxy setup --terminal-command "PROGRAM ARGS"`',
      ),
    ];
  return [ok('terminal', 'program', `${what}: ${found}`)];
}
