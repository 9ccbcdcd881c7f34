/**
 * Where `state save` may write and `state load` may read: the one rule of files/allowed-folders.ts (the
 * session's folder and the folders the user allowed), with BPROXY_HOME/state added as the place a
 * relative name is taken from. Every check happens before any byte is read or written. Files are
 * written 0600 through a temporary file and a rename (never through a link); reads open with
 * O_NOFOLLOW and are bounded.
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  openSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { ensurePrivateFolder } from '@bproxy/client/lifecycle';
import { MAX_STATE_FILE_BYTES } from '@bproxy/protocol';
import { checkFile, checkOutFile, type FileRules } from '../files/allowed-folders';

export class PathRefused extends Error {
  override readonly name = 'PathRefused';
  constructor(
    readonly code: 'PATH_NOT_ALLOWED' | 'FILE_NOT_FOUND' | 'STATE_FILE_INVALID',
    message: string,
  ) {
    super(message);
  }
}

/** BPROXY_HOME/state (made 0700 and checked): where a relative state file name is taken from. */
export function stateFolder(home: string): string {
  const stateDir = join(home, 'state');
  ensurePrivateFolder(home, stateDir);
  return stateDir;
}

/**
 * The checked absolute path of a state file, by the one rule of allowed-folders.ts: a relative name is
 * taken from BPROXY_HOME/state (kept across sessions), an absolute path must be in the session's folder
 * or a folder the user allowed. `load` reads an existing regular file (links inside followed, a link
 * out refused); `save` writes a file whose folder is inside and which, if it exists, is no link.
 */
export function statePath(given: string, home: string, rules: FileRules, mode: 'load' | 'save'): string {
  const stateDir = stateFolder(home);
  const stateRules: FileRules = {
    sessionFolder: stateDir,
    folders: [stateDir, ...rules.folders],
    maxBytes: MAX_STATE_FILE_BYTES,
  };
  if (mode === 'save') {
    const out = checkOutFile(given, stateRules);
    if (!out.ok) throw new PathRefused(out.code, out.message);
    return out.path;
  }
  const file = checkFile(given, stateRules);
  if (!file.ok) throw new PathRefused(file.code, file.message);
  return file.file.path;
}

/** Reads a checked path, at most MAX_STATE_FILE_BYTES, never through a link. */
export function readConfined(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    throw new PathRefused('STATE_FILE_INVALID', `cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new PathRefused('STATE_FILE_INVALID', `${path} is not a regular file`);
    if (stats.size > MAX_STATE_FILE_BYTES)
      throw new PathRefused('STATE_FILE_INVALID', `${path} is over ${MAX_STATE_FILE_BYTES} bytes`);
    const buffer = Buffer.alloc(stats.size);
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Writes a checked path with mode 0600: a fresh temporary file beside it, then a rename over it. */
export function writeConfined(path: string, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length > MAX_STATE_FILE_BYTES)
    throw new PathRefused('STATE_FILE_INVALID', `the state is over ${MAX_STATE_FILE_BYTES} bytes`);
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(
    temp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),
    0o600,
  );
  let done = false;
  try {
    if (typeof process.getuid === 'function') fchmodSync(fd, 0o600);
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    done = true;
  } finally {
    closeSync(fd);
    if (!done) unlinkSync(temp);
  }
  renameSync(temp, path);
}
