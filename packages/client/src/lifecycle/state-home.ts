/**
 * The state directory itself: created 0700 by the daemon, and checked by everyone who reads it.
 * A directory owned by another user is refused: whoever owns it can swap any file inside.
 */
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { LifecycleError, errnoCode } from './errors';
import type { StatePaths } from './paths';
import { currentUid } from './secure-file';

/** Throws when the home exists but is not a directory of ours; false when it does not exist. */
export function checkStateHome(home: string): boolean {
  let stats;
  try {
    // stat, not lstat: a home that is a symlink to a directory of ours (dotfiles setups) is fine.
    stats = statSync(home);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return false;
    throw error;
  }
  if (!stats.isDirectory())
    throw new LifecycleError('unsafe-state', `BPROXY_HOME ${home} is not a directory`);
  const uid = currentUid();
  if (uid !== null && stats.uid !== uid) {
    throw new LifecycleError(
      'unsafe-state',
      `refusing to use BPROXY_HOME ${home}: it is owned by uid ${stats.uid}, not by you (uid ${uid})`,
    );
  }
  return true;
}

/** Creates the state directory and its subdirectories with mode 0700, tightening an existing home of ours. */
export function ensureStateHome(paths: StatePaths): void {
  mkdirSync(paths.home, { recursive: true, mode: 0o700 });
  checkStateHome(paths.home);
  if ((statSync(paths.home).mode & 0o077) !== 0 && currentUid() !== null) chmodSync(paths.home, 0o700);
  for (const dir of [paths.logs, paths.tmp]) mkdirSync(dir, { recursive: true, mode: 0o700 });
}
