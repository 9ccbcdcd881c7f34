/**
 * Writing the registration's files: atomically (a temporary file beside the target, created
 * exclusively, its mode set exactly whatever the umask, then renamed over it — a browser reading the
 * folder sees the old file or the new one, and a symlink planted at the target is replaced, never
 * followed) and never writable by group or others. Folders we create are 0755 (the browsers' own
 * NativeMessagingHosts folders) or 0700 (BPROXY_HOME/host).
 */
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  fchmodSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

const POSIX = process.platform !== 'win32';

export function writeFileAtomic(path: string, text: string | Buffer, mode: number): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(
    temp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),
    mode,
  );
  let renamed = false;
  try {
    if (POSIX) fchmodSync(fd, mode);
    const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temp, path);
    renamed = true;
  } finally {
    if (!renamed) {
      try {
        closeSync(fd);
      } catch {
        // closed before the rename failed
      }
      removeFile(temp);
    }
  }
}

/** Creates `dir` (and its parents) with `mode`; an existing folder of ours loses group/other write. */
export function ensureFolder(dir: string, mode: number): void {
  mkdirSync(dir, { recursive: true, mode });
  if (!POSIX) return;
  const stats = statSync(dir);
  const ours = typeof process.getuid === 'function' && stats.uid === process.getuid();
  if (ours && (stats.mode & 0o022) !== 0) chmodSync(dir, stats.mode & 0o7777 & ~0o022);
  if (ours && mode === 0o700 && (stats.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

/** Removes a file; false when it was already gone. */
export function removeFile(path: string): boolean {
  try {
    unlinkSync(path);
    return true;
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return false;
    throw error;
  }
}

/** The permission problem of `path` for a file browsers run or read, or null. */
export function modeProblem(path: string): string | null {
  if (!POSIX) return null;
  let stats;
  try {
    stats = lstatSync(path);
  } catch {
    return null;
  }
  if ((stats.mode & 0o022) !== 0)
    return `${path} is writable by group or others (mode 0${(stats.mode & 0o777).toString(8)})`;
  return null;
}
