/**
 * The launcher a manifest's `path` names: a POSIX sh script (a .bat on Windows) that runs the host
 * bundle with the absolute Node binary recorded at install time. Chrome starts hosts with a minimal
 * PATH (the most reported failure of other hosts is `node: not found`), so nothing is looked up on
 * PATH. It also sets BPROXY_HOME when one was set at install time, so the host serves the daemon of
 * the user's CLI (and reads the trusted extension ids from there), and BPROXY_TERMINAL_COMMAND when the user chose the side panel Terminal's program at install time (a
 * browser started from the desktop has no other way to pass it). Reading one back
 * recovers the Node and bundle it runs, for `status`.
 */
import { NATIVE_HOST_NAME } from '@bproxy/protocol';
import { TERMINAL_COMMAND_VAR } from '../terminal/terminal-command';
import type { RegistrationPlatform } from './context';

export interface LauncherSpec {
  /** The absolute Node binary. */
  readonly node: string;
  /** The absolute host bundle (dist/native-host.mjs). */
  readonly bundle: string;
  /** BPROXY_HOME to bake in; null: the host resolves it as the CLI does (~/.bproxy). */
  readonly stateHome: string | null;
  /** The Terminal's program and its arguments, or null (claude when on PATH, else the shell). */
  readonly terminalCommand: string | null;
}

const HEADER = `bproxy native messaging host (${NATIVE_HOST_NAME}), written by \`bproxy host install\`; \`bproxy host uninstall\` removes it.`;
const WHY = 'Browsers start hosts with a minimal PATH: Node is named by its absolute path.';

/** A word for sh, single-quoted: nothing inside is expanded. */
const shQuote = (word: string): string => `'${word.replaceAll("'", `'\\''`)}'`;
const shUnquote = (word: string): string => word.replaceAll(`'\\''`, "'").replace(/^'|'$/g, '');
/** In a .bat file `%` starts a variable, even inside quotes; Windows paths never contain `"`. */
const batEscape = (word: string): string => word.replaceAll('%', '%%');

export function launcherText(platform: RegistrationPlatform, spec: LauncherSpec): string {
  const env: [string, string][] = [];
  if (spec.stateHome !== null) env.push(['BPROXY_HOME', spec.stateHome]);
  if (spec.terminalCommand !== null) env.push([TERMINAL_COMMAND_VAR, spec.terminalCommand]);
  if (platform === 'win32') {
    return [
      '@echo off',
      `rem ${HEADER}`,
      `rem ${WHY}`,
      ...env.map(([name, value]) => `set "${name}=${batEscape(value)}"`),
      `"${batEscape(spec.node)}" "${batEscape(spec.bundle)}" %*`,
      '',
    ].join('\r\n');
  }
  return [
    '#!/bin/sh',
    `# ${HEADER}`,
    `# ${WHY}`,
    ...env.flatMap(([name, value]) => [`${name}=${shQuote(value)}`, `export ${name}`]),
    `exec ${shQuote(spec.node)} ${shQuote(spec.bundle)} "$@"`,
    '',
  ].join('\n');
}

/** What a launcher we wrote runs; null for a file that is not one of ours. */
export function readLauncher(text: string): { readonly node: string; readonly bundle: string } | null {
  if (!text.includes(HEADER)) return null;
  const sh = /^exec ((?:'[^']*'|\\')+) ((?:'[^']*'|\\')+) "\$@"$/m.exec(text);
  if (sh?.[1] !== undefined && sh[2] !== undefined)
    return { node: shUnquote(sh[1]), bundle: shUnquote(sh[2]) };
  const bat = /^"([^"]+)" "([^"]+)" %\*\r?$/m.exec(text);
  if (bat?.[1] !== undefined && bat[2] !== undefined)
    return { node: bat[1].replaceAll('%%', '%'), bundle: bat[2].replaceAll('%%', '%') };
  return null;
}
