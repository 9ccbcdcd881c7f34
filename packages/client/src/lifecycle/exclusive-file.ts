/**
 * Creating a small file exclusively *with its content*: the content goes to a private temporary
 * file first and is then hard-linked to the final name, which fails with EEXIST when the name is
 * taken. Unlike open(O_EXCL) followed by write, no reader can ever observe the file empty — a
 * half-written lockfile would look stale and invite a wrongful takeover.
 */
import { closeSync, constants, fchmodSync, fsyncSync, linkSync, openSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { errnoCode } from './errors';
import { removeStateFile } from './secure-file';
import { randomHex } from './random-hex';

/** True when `path` was created by us with `content` (mode 0600); false when it already existed. */
export function createExclusive(path: string, content: string): boolean {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomHex(6)}.new`);
  const fd = openSync(
    temp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),
    0o600,
  );
  try {
    fchmodSync(fd, 0o600);
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    throw error;
  } finally {
    removeStateFile(temp);
  }
}
