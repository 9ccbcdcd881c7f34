/**
 * The daemon bearer token: 32 random bytes, hex, rotated at every start. Its secrecy rests on the
 * file's owner and mode alone, so a pre-existing token file we would not have written ourselves
 * (symlink, other owner, readable by others) stops the start instead of being quietly replaced.
 */
import { LifecycleError } from './errors';
import type { StatePaths } from './paths';
import { checkStateFile, readStateFile, writeStateFileAtomic } from './secure-file';
import { randomHex } from './random-hex';

const TOKEN_PATTERN = /^[0-9a-f]{64}$/;

export function generateDaemonToken(): string {
  return randomHex(32);
}

/** Writes a fresh token (0600, atomically) and returns it; throws LifecycleError on an unsafe existing file. */
export function writeDaemonToken(paths: StatePaths): string {
  checkStateFile(paths.token);
  const token = generateDaemonToken();
  writeStateFileAtomic(paths.token, `${token}\n`);
  return token;
}

/** The token the CLI sends, or null when there is none. Fails closed on an unsafe or malformed file. */
export function readDaemonToken(paths: StatePaths): string | null {
  const raw = readStateFile(paths.token);
  if (raw === null) return null;
  const token = raw.trim();
  if (!TOKEN_PATTERN.test(token)) {
    throw new LifecycleError(
      'unsafe-state',
      `refusing to use ${paths.token}: it does not hold a bproxy token (restart the daemon to write a new one)`,
    );
  }
  return token;
}
