import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLock, inspectLock, removeStaleState } from '../../src/lifecycle/lockfile';
import { statePaths, type StatePaths } from '../../src/lifecycle/paths';

let paths: StatePaths;
beforeEach(() => {
  paths = statePaths(mkdtempSync(join(tmpdir(), 'bproxy-lock-')));
});
afterEach(() => {
  rmSync(paths.home, { recursive: true, force: true });
});

/** Identity seam: which PIDs count as "our running daemon" in a test. */
const daemons =
  (...pids: number[]) =>
  (pid: number) =>
    pids.includes(pid);

describe('acquireLock', () => {
  it('creates bproxy.pid with the PID alone, mode 0600', async () => {
    const lock = await acquireLock(paths, { pid: 4242, isOurDaemon: daemons() });
    expect(readFileSync(paths.pid, 'utf8')).toBe('4242\n');
    expect(existsSync(paths.takeover)).toBe(false);
    lock.release();
    expect(existsSync(paths.pid)).toBe(false);
  });

  it('refuses while the lock names our running daemon', async () => {
    writeFileSync(paths.pid, '777\n', { mode: 0o600 });
    await expect(acquireLock(paths, { pid: 4242, isOurDaemon: daemons(777) })).rejects.toMatchObject({
      kind: 'already-running',
      message: `a bproxy daemon is already running for ${paths.home} (pid 777)`,
    });
    expect(readFileSync(paths.pid, 'utf8')).toBe('777\n');
  });

  it('takes over a stale lock and removes the stale transient files, keeping extension-token', async () => {
    writeFileSync(paths.pid, '777\n', { mode: 0o600 });
    for (const file of [paths.port, paths.token, paths.pairing, paths.extensionToken])
      writeFileSync(file, 'x', { mode: 0o600 });
    await acquireLock(paths, { pid: 4242, isOurDaemon: daemons() });
    expect(readFileSync(paths.pid, 'utf8')).toBe('4242\n');
    for (const file of [paths.port, paths.token, paths.pairing]) expect(existsSync(file)).toBe(false);
    expect(existsSync(paths.extensionToken)).toBe(true);
  });

  it('treats its own PID in an old lockfile as stale (a previous process had the same number)', async () => {
    writeFileSync(paths.pid, '4242\n', { mode: 0o600 });
    await acquireLock(paths, { pid: 4242, isOurDaemon: daemons(4242) });
    expect(readFileSync(paths.pid, 'utf8')).toBe('4242\n');
  });

  it('breaks a takeover guard left by a dead process', async () => {
    writeFileSync(paths.takeover, '999999\n', { mode: 0o600 });
    await acquireLock(paths, { pid: 4242, isOurDaemon: daemons() });
    expect(existsSync(paths.takeover)).toBe(false);
  });

  it('waits for a live guard holder, then gives up with a message', async () => {
    // The test runner is alive: its guard is respected.
    writeFileSync(paths.takeover, `${process.pid}\n`, { mode: 0o600 });
    await expect(acquireLock(paths, { pid: 4242, isOurDaemon: daemons(), guardWaitMs: 50 })).rejects.toThrow(
      `another bproxy start or stop (pid ${process.pid}) is changing ${paths.pid}; try again`,
    );
    expect(existsSync(paths.pid)).toBe(false);
  });

  it('release leaves a lock that names another process alone', async () => {
    const lock = await acquireLock(paths, { pid: 4242, isOurDaemon: daemons() });
    writeFileSync(paths.pid, '5151\n', { mode: 0o600 });
    lock.release();
    expect(readFileSync(paths.pid, 'utf8')).toBe('5151\n');
  });
});

describe('inspectLock and removeStaleState', () => {
  it('says missing, invalid, stale or running', () => {
    expect(inspectLock(paths, daemons())).toEqual({ kind: 'missing' });
    writeFileSync(paths.pid, '12ab\n', { mode: 0o600 });
    expect(inspectLock(paths, daemons())).toEqual({ kind: 'invalid', raw: '12ab\n' });
    writeFileSync(paths.pid, '31\n', { mode: 0o600 });
    expect(inspectLock(paths, daemons())).toEqual({ kind: 'stale', pid: 31 });
    expect(inspectLock(paths, daemons(31))).toEqual({ kind: 'running', pid: 31 });
  });

  it('removes stale state but never the state of a running daemon', async () => {
    writeFileSync(paths.pid, '31\n', { mode: 0o600 });
    writeFileSync(paths.port, '9\n', { mode: 0o600 });
    await removeStaleState(paths, daemons(31));
    expect(existsSync(paths.port)).toBe(true);
    await removeStaleState(paths, daemons());
    expect(existsSync(paths.port)).toBe(false);
    expect(existsSync(paths.pid)).toBe(false);
  });
});
