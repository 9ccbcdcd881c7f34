/**
 * Where `state save` may write and `state load` may read: only inside the folders the user allowed —
 * the state folder BPROXY_HOME/state (a plain name lands there), the session's own folder, and the
 * folders named in BPROXY_ALLOW_FILES (separated like PATH). A path with a `..` part, a symbolic link
 * anywhere on the way out of those folders, or a file that is a symbolic link is refused before any
 * byte is read or written. Files are written 0600 through a temporary file and a rename (never through
 * a link); reads open with O_NOFOLLOW and are bounded.
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  realpathSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, delimiter, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { ensurePrivateFolder } from '@bproxy/client/lifecycle';
import { MAX_STATE_FILE_BYTES } from '@bproxy/protocol';

export class PathRefused extends Error {
  override readonly name = 'PathRefused';
  constructor(
    readonly code: 'PATH_NOT_ALLOWED' | 'STATE_FILE_INVALID',
    message: string,
  ) {
    super(message);
  }
}

export interface AllowedFolders {
  /** BPROXY_HOME/state: where a plain file name goes. */
  stateDir: string;
  /** Every folder a path may be in (stateDir first). */
  roots: string[];
}

/** The folders of a session: the state folder (created 0700 and checked), its own folder, and the user's. */
export function allowedFolders(
  home: string,
  sessionDir: string,
  env: NodeJS.ProcessEnv = process.env,
): AllowedFolders {
  const stateDir = join(home, 'state');
  ensurePrivateFolder(home, stateDir);
  const extra = (env.BPROXY_ALLOW_FILES ?? '').split(delimiter).filter((d) => d !== '' && isAbsolute(d));
  return { stateDir, roots: [stateDir, sessionDir, ...extra] };
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/**
 * The checked absolute path for `given`: refuses `..` parts, a folder outside the allowed ones (after
 * resolving every link of the folder), and a final name that is a symbolic link or not a regular file.
 */
export function confinePath(given: string, folders: AllowedFolders): string {
  if (given.includes('\0')) throw new PathRefused('PATH_NOT_ALLOWED', 'the path holds a NUL character');
  if (given.split(/[\\/]/).includes('..'))
    throw new PathRefused('PATH_NOT_ALLOWED', `"${given}" has a ".." part; name the file directly`);
  const absolute = isAbsolute(given) ? given : join(folders.stateDir, given);
  const name = basename(absolute);
  if (name === '' || name === '.' || absolute.endsWith(sep))
    throw new PathRefused('PATH_NOT_ALLOWED', `"${given}" names a folder, not a file`);
  const folder = realOrNull(dirname(absolute));
  if (folder === null) throw new PathRefused('PATH_NOT_ALLOWED', `the folder of "${given}" does not exist`);
  const roots = folders.roots.map(realOrNull).filter((r): r is string => r !== null);
  if (!roots.some((root) => inside(root, folder)))
    throw new PathRefused(
      'PATH_NOT_ALLOWED',
      `"${given}" is outside the folders the user allowed (BPROXY_HOME/state, the session's folder, BPROXY_ALLOW_FILES)`,
    );
  const file = join(folder, name);
  let stats;
  try {
    stats = lstatSync(file);
  } catch {
    return file;
  }
  if (stats.isSymbolicLink())
    throw new PathRefused(
      'PATH_NOT_ALLOWED',
      `"${given}" is a symbolic link; state files are never followed through links`,
    );
  if (!stats.isFile()) throw new PathRefused('PATH_NOT_ALLOWED', `"${given}" is not a regular file`);
  return file;
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
