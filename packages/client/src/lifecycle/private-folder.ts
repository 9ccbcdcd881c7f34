/**
 * Private folders in the state directory for files a client hands to an agent by path (screenshots):
 * the folder is created 0700 and, like every state file, refused when it is a symbolic link, not a
 * folder, owned by another user or open to group or others — whoever could write there could swap the
 * file between our write and the agent's read. Files in it are created exclusively (O_EXCL, no
 * symlink followed, mode 0600 whatever the umask), so a name planted in advance is refused, never
 * written through.
 */
import {
  closeSync,
  constants,
  fchmodSync,
  lstatSync,
  mkdirSync,
  openSync,
  statSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { LifecycleError, errnoCode } from './errors';
import { currentUid, removeStateFile } from './secure-file';
import { checkStateHome } from './state-home';

const octal = (mode: number): string => `0${(mode & 0o777).toString(8).padStart(3, '0')}`;

/** Throws when `stats` describe a folder we must not keep private files in. */
function assertPrivateFolder(path: string, stats: Stats): void {
  if (stats.isSymbolicLink())
    throw new LifecycleError(
      'unsafe-state',
      `refusing to use ${path}: it is a symbolic link; it must be a folder owned by you (remove it and try again)`,
    );
  if (!stats.isDirectory())
    throw new LifecycleError(
      'unsafe-state',
      `refusing to use ${path}: it is not a folder (remove it and try again)`,
    );
  const uid = currentUid();
  if (uid === null) return;
  if (stats.uid !== uid)
    throw new LifecycleError(
      'unsafe-state',
      `refusing to use ${path}: it is owned by uid ${stats.uid}, not by you (uid ${uid}); remove it and try again`,
    );
  if ((stats.mode & 0o077) !== 0)
    throw new LifecycleError(
      'unsafe-state',
      `refusing to use ${path}: its mode is ${octal(stats.mode)}, but group and others must have no access (fix with: chmod 700 ${path})`,
    );
}

/**
 * Makes sure `dir`, a folder directly inside the state directory `home`, exists and is private:
 * creates both with mode 0700 when missing, and throws LifecycleError ('unsafe-state') when either
 * is not ours or `dir` is open to others. A home others may write to is refused too: they could
 * rename `dir` away and put their own in its place.
 */
export function ensurePrivateFolder(home: string, dir: string): void {
  if (!checkStateHome(home)) mkdirSync(home, { recursive: true, mode: 0o700 });
  const homeStats = statSync(home);
  const uid = currentUid();
  if (uid !== null && homeStats.uid !== uid)
    throw new LifecycleError(
      'unsafe-state',
      `refusing to use BPROXY_HOME ${home}: it is owned by uid ${homeStats.uid}, not by you (uid ${uid})`,
    );
  if (uid !== null && (homeStats.mode & 0o022) !== 0)
    throw new LifecycleError(
      'unsafe-state',
      `refusing to use BPROXY_HOME ${home}: its mode is ${octal(homeStats.mode)}, so others can replace what is in it (fix with: chmod 700 ${home})`,
    );
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if (errnoCode(error) !== 'EEXIST') throw error;
  }
  assertPrivateFolder(dir, lstatSync(dir));
}

/**
 * Creates `path` (in a folder checked by ensurePrivateFolder) with `bytes` and mode 0600. Never
 * replaces or follows anything already there: an existing name, a symlink included, is refused.
 */
export function writeNewPrivateFile(path: string, bytes: Uint8Array): void {
  let fd: number;
  try {
    fd = openSync(
      path,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),
      0o600,
    );
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'EEXIST' || code === 'ELOOP')
      throw new LifecycleError(
        'unsafe-state',
        `refusing to write ${path}: something is already there (a file or a symbolic link we did not create)`,
      );
    throw error;
  }
  let done = false;
  try {
    // The umask can only remove bits; fchmod makes the mode exact.
    if (currentUid() !== null) fchmodSync(fd, 0o600);
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    done = true;
  } finally {
    closeSync(fd);
    if (!done) removeStateFile(path);
  }
}
