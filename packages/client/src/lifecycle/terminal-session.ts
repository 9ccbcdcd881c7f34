/**
 * The session a side panel's terminal drives, kept current. The native host starts the terminal's
 * program with BPROXY_TERMINAL naming the terminal, and writes the session now holding the terminal's
 * tab to BPROXY_HOME/terminals/<terminal> (a private folder, a 0600 file) whenever it changes — the
 * daemon restarted and the tab was shared again, the user shared it again. `bproxy` run there reads
 * that file rather than the BPROXY_SESSION its program was started with, which names the session of
 * that moment. An empty file: no session holds the tab now.
 */
import { join } from 'node:path';
import type { Env } from './config';
import { ensurePrivateFolder } from './private-folder';
import { readStateFile, removeStateFileQuietly, writeStateFileAtomic } from './secure-file';

/** The variable naming the panel terminal a program runs in. */
export const TERMINAL_VAR = 'BPROXY_TERMINAL';

const TERMINAL_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** BPROXY_HOME/terminals: one file per terminal. */
export const terminalsDir = (home: string): string => join(home, 'terminals');

/** The file of terminal `termId`, or null for an id that cannot name one (dots, colons, slashes). */
export function terminalSessionFile(home: string, termId: string): string | null {
  return TERMINAL_ID.test(termId) ? join(terminalsDir(home), termId) : null;
}

/** Writes the session now holding the terminal's tab ('' when none does). */
export function writeTerminalSession(home: string, termId: string, session: string | undefined): void {
  const file = terminalSessionFile(home, termId);
  if (file === null) return;
  ensurePrivateFolder(home, terminalsDir(home));
  writeStateFileAtomic(file, session ?? '');
}

/** The terminal ended: its file goes. */
export function removeTerminalSession(home: string, termId: string): void {
  const file = terminalSessionFile(home, termId);
  if (file !== null) removeStateFileQuietly(file);
}

/**
 * The session the terminal named by BPROXY_TERMINAL drives now: undefined when `env` names no terminal
 * or the terminal has no file (a terminal of another installation), '' when no session holds its tab.
 * Throws LifecycleError when the file is not one we may trust (another owner, open to others, a link).
 */
export function currentTerminalSession(env: Env, home: string): string | undefined {
  const termId = env[TERMINAL_VAR];
  if (termId === undefined || termId === '') return undefined;
  const file = terminalSessionFile(home, termId);
  if (file === null) return undefined;
  const text = readStateFile(file);
  return text === null ? undefined : text.trim();
}
