/**
 * Reading and writing files in the state directory without trusting them blindly.
 *
 * Reads fail closed: a state file that is a symbolic link, is not a regular file, belongs to another
 * user or grants any permission to group or others is refused with a sentence that says why and how to
 * fix it — a token another user could have planted or read is worse than no token. Writes are atomic
 * (temporary file in the same directory created exclusively with mode 0600, fsync, rename), so a
 * reader sees the old content or the new one, never a torn file, and never a file with a looser mode.
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { LifecycleError, errnoCode } from './errors';
import { randomHex } from './random-hex';

/** Our uid, or null where the platform has none (Windows): ownership checks are then skipped. */
export function currentUid(): number | null {
  return typeof process.getuid === 'function' ? process.getuid() : null;
}

function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8).padStart(3, '0')}`;
}

/** Throws when `stats` describe a file we must not trust; `path` only feeds the message. */
export function assertSafeStats(path: string, stats: Stats): void {
  if (stats.isSymbolicLink()) {
    throw new LifecycleError(
      'unsafe-state',
      `refusing to use ${path}: it is a symbolic link; state files must be regular files owned by you (remove it and start again)`,
    );
  }
  if (!stats.isFile()) {
    throw new LifecycleError('unsafe-state', `refusing to use ${path}: it is not a regular file`);
  }
  const uid = currentUid();
  if (uid !== null && stats.uid !== uid) {
    throw new LifecycleError(
      'unsafe-state',
      `refusing to use ${path}: it is owned by uid ${stats.uid}, not by you (uid ${uid}); remove it and start again`,
    );
  }
  if (uid !== null && (stats.mode & 0o077) !== 0) {
    throw new LifecycleError(
      'unsafe-state',
      `refusing to use ${path}: its mode is ${octal(stats.mode)}, but group and others must have no access (fix with: chmod 600 ${path})`,
    );
  }
}

/** lstat that maps "no such file" to null. */
function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw error;
  }
}

/** Checks an existing state file without reading it; false when it does not exist. */
export function checkStateFile(path: string): boolean {
  const stats = lstatOrNull(path);
  if (stats === null) return false;
  assertSafeStats(path, stats);
  return true;
}

/** What readStateJson checks a file's content against (a zod schema's safeParse, or the like). */
export interface JsonShape<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false };
}

/**
 * A state file's JSON in `shape`: null when there is no file, `invalid` when its content is not JSON
 * of that shape (the caller says what it should be). Throws LifecycleError when the file is unsafe.
 */
export function readStateJson<T>(path: string, shape: JsonShape<T>): T | null | 'invalid' {
  const raw = readStateFile(path);
  if (raw === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return 'invalid';
  }
  const parsed = shape.safeParse(json);
  return parsed.success ? parsed.data : 'invalid';
}

/** Reads a state file, or returns null when it does not exist; throws LifecycleError when it is unsafe. */
export function readStateFile(path: string): string | null {
  const before = lstatOrNull(path);
  if (before === null) return null;
  assertSafeStats(path, before);
  let fd: number;
  try {
    // O_NOFOLLOW closes the window between the lstat above and this open: a symlink swapped in meanwhile fails here.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP') assertSafeStats(path, lstatSync(path));
    throw error;
  }
  try {
    const opened = fstatSync(fd);
    if (opened.ino !== before.ino || opened.dev !== before.dev) {
      throw new LifecycleError(
        'unsafe-state',
        `refusing to use ${path}: it was replaced while being read; try again`,
      );
    }
    assertSafeStats(path, opened);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** Writes `data` to `path` atomically with mode 0600. The old file, if any, is replaced, never edited. */
export function writeStateFileAtomic(path: string, data: string): void {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomHex(6)}.tmp`);
  const fd = openSync(
    temp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),
    0o600,
  );
  let renamed = false;
  try {
    // The umask can only remove bits; fchmod makes the mode exact whatever the umask.
    fchmodSync(fd, 0o600);
    const bytes = Buffer.from(data, 'utf8');
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temp, path);
    renamed = true;
    syncDirectory(dir);
  } finally {
    if (!renamed) {
      try {
        closeSync(fd);
      } catch {
        // already closed
      }
      removeStateFile(temp);
    }
  }
}

/** Makes a rename durable; best effort because some filesystems refuse fsync on directories. */
function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, constants.O_RDONLY);
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // not durable across a power loss on this filesystem; still atomic
  }
}

/** Removes a file; a file that is already gone is not an error. */
export function removeStateFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
  }
}

/** removeStateFile for cleanup paths, where a failure must not hide the original outcome. */
export function removeStateFileQuietly(path: string): void {
  try {
    removeStateFile(path);
  } catch {
    // cleanup is best effort; the next start removes stale state again
  }
}
