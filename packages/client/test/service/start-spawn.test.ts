/**
 * How the daemon is spawned: detached (a process group of its own, so it outlives the command that
 * started it — checked on a real process here) and with windowsHide, so that on Windows the detached
 * daemon gets no console window of its own (Node's option; it does nothing elsewhere).
 */
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DAEMON_SPAWN } from '../../src/service/start';

describe('spawning the daemon', () => {
  it('is detached and hides its window on Windows', () => {
    expect(DAEMON_SPAWN).toEqual({ detached: true, windowsHide: true });
  });

  it.runIf(process.platform === 'linux')(
    'puts a real process in a group of its own',
    async () => {
      const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
        ...DAEMON_SPAWN,
        stdio: 'ignore',
      });
      try {
        const pid = child.pid ?? 0;
        const pgid = execFileSync('ps', ['-o', 'pgid=', '-p', String(pid)], { encoding: 'utf8' }).trim();
        expect(Number(pgid)).toBe(pid);
      } finally {
        child.kill('SIGKILL');
        await new Promise((done) => child.once('exit', done));
      }
    },
    10_000,
  );
});
