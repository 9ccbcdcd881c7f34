/**
 * bproxy.pid: exactly one daemon per state directory.
 *
 * Every change of the lock (acquire, stale takeover, stale cleanup by `service stop`) happens while
 * holding a short-lived guard file, `bproxy.pid.takeover`, itself created exclusively — so the race
 * between two `service start` is decided by the filesystem, and a starter that found a stale lock
 * cannot delete the fresh lock of the starter that won. The lockfile holds the PID alone (scripts
 * may `kill $(cat bproxy.pid)`); whether that PID is still our daemon is decided by
 * process-identity.ts, never by liveness alone.
 *
 * A guard left behind by a process that died inside its (millisecond-long) critical section is
 * broken when its holder is dead; two starters breaking the same dead guard at once is the one race
 * left, and needs a crash inside the guard plus two simultaneous starts.
 */
import { LifecycleError } from './errors';
import { createExclusive } from './exclusive-file';
import type { StatePaths } from './paths';
import { transientFiles } from './paths';
import { isOurDaemon, processState, type DaemonIdentityCheck } from './process-identity';
import { checkStateFile, readStateFile, removeStateFile, removeStateFileQuietly } from './secure-file';

export type LockState =
  | { readonly kind: 'missing' }
  | { readonly kind: 'invalid'; readonly raw: string }
  | { readonly kind: 'stale'; readonly pid: number }
  | { readonly kind: 'running'; readonly pid: number };

export function parsePidFile(raw: string): number | null {
  const match = /^([1-9][0-9]{0,9})\n?$/.exec(raw);
  if (match === null || match[1] === undefined) return null;
  const pid = Number(match[1]);
  return pid <= 0x7fffffff ? pid : null;
}

export interface LockOptions {
  readonly isOurDaemon?: DaemonIdentityCheck;
  /** The PID written to the lockfile (the daemon's own). */
  readonly pid?: number;
  /** How long to wait for another starter's guard (default 3 s). */
  readonly guardWaitMs?: number;
}

/** Reads the lockfile and says what it means. Throws LifecycleError when the file is unsafe. */
export function inspectLock(
  paths: StatePaths,
  check: DaemonIdentityCheck = isOurDaemon,
  self = -1,
): LockState {
  const raw = readStateFile(paths.pid);
  if (raw === null) return { kind: 'missing' };
  const pid = parsePidFile(raw);
  if (pid === null) return { kind: 'invalid', raw };
  // Our own PID in a lockfile we did not write is a leftover of an earlier process with the same number.
  if (pid !== self && check(pid, paths.home)) return { kind: 'running', pid };
  return { kind: 'stale', pid };
}

async function withGuard<T>(paths: StatePaths, waitMs: number, body: () => T): Promise<T> {
  const until = Date.now() + waitMs;
  for (;;) {
    if (createExclusive(paths.takeover, `${process.pid}\n`)) break;
    const raw = readStateFile(paths.takeover);
    // Gone already: its holder finished; try again rather than remove a guard someone just took.
    if (raw === null) continue;
    const holder = parsePidFile(raw);
    if (holder === null || processState(holder) === 'dead') {
      removeStateFileQuietly(paths.takeover);
      continue;
    }
    if (Date.now() >= until) {
      throw new LifecycleError(
        'failed',
        `another bproxy start or stop (pid ${holder}) is changing ${paths.pid}; try again`,
      );
    }
    // Backoff, not synchronization: the holder's critical section is a few file operations. (A plain
    // timer: node:timers/promises would load on the CLI's action path, which reads this module.)
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  try {
    return body();
  } finally {
    removeStateFileQuietly(paths.takeover);
  }
}

export interface LockHandle {
  readonly pid: number;
  /** Removes the lockfile if it still names this process. */
  release(): void;
}

/**
 * Takes the lock for this process. A lock naming a dead process, a process that is not our daemon
 * (PID reuse) or holding garbage is stale: it is replaced, and the transient files of the daemon that
 * left it are removed with it. A lock held by our running daemon is a LifecycleError 'already-running'.
 */
export async function acquireLock(paths: StatePaths, options: LockOptions = {}): Promise<LockHandle> {
  const pid = options.pid ?? process.pid;
  const check = options.isOurDaemon ?? isOurDaemon;
  return withGuard(paths, options.guardWaitMs ?? 3000, () => {
    const state = inspectLock(paths, check, pid);
    if (state.kind === 'running') {
      throw new LifecycleError(
        'already-running',
        `a bproxy daemon is already running for ${paths.home} (pid ${state.pid})`,
      );
    }
    if (state.kind !== 'missing') {
      // An unsafe leftover (say a token symlink) stops the start rather than vanishing with the stale state.
      for (const file of transientFiles(paths)) checkStateFile(file);
      removeStateFile(paths.pid);
      for (const file of transientFiles(paths)) removeStateFile(file);
    }
    if (!createExclusive(paths.pid, `${pid}\n`)) {
      // Unreachable while everyone takes the guard; a foreign writer is not something to guess about.
      throw new LifecycleError('failed', `${paths.pid} appeared while the lock was being taken; try again`);
    }
    return { pid, release: () => releaseLock(paths, pid) };
  });
}

function releaseLock(paths: StatePaths, pid: number): void {
  try {
    const raw = readStateFile(paths.pid);
    if (raw !== null && parsePidFile(raw) === pid) removeStateFile(paths.pid);
  } catch {
    // an unsafe or vanished lockfile is not ours to remove
  }
}

/**
 * `service stop` after the daemon is gone (or was never there): removes the lockfile and transient
 * files unless, under the guard, the lock names a running daemon — one that started since is left alone.
 */
export async function removeStaleState(
  paths: StatePaths,
  check: DaemonIdentityCheck = isOurDaemon,
): Promise<void> {
  await withGuard(paths, 3000, () => {
    const state = inspectLock(paths, check);
    if (state.kind === 'running') return;
    removeStateFile(paths.pid);
    for (const file of transientFiles(paths)) removeStateFile(file);
  });
}
