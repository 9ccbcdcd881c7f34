/**
 * Stopping the daemon (`bproxy service stop`): SIGTERM (the daemon drains, then removes its files), a bounded wait, SIGKILL
 * if it will not go, then removal of whatever transient state is left. Stopping a daemon that is not
 * running is not an error: the result is the same, `{"running":false}`.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { StopOutputSchema } from '@bproxy/protocol';
import { resolveHome, type Env } from '../lifecycle/config';
import { LifecycleError } from '../lifecycle/errors';
import { inspectLock, removeStaleState } from '../lifecycle/lockfile';
import { statePaths } from '../lifecycle/paths';
import { processState } from '../lifecycle/process-identity';
import { checkStateHome } from '../lifecycle/state-home';

/** Long enough to drain requests in flight (the server's own drain is shorter). */
const TERM_WAIT_MS = 10_000;
const KILL_WAIT_MS = 3_000;

/** Polls for the process to exit: nothing in Node signals the exit of a process that is not our child. */
async function exited(pid: number, withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (processState(pid) !== 'dead') {
    if (Date.now() >= until) return false;
    await delay(25);
  }
  return true;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

export type StopOutput = ReturnType<typeof StopOutputSchema.parse>;

/** Stops the daemon of BPROXY_HOME if one runs; throws a LifecycleError when it will not go. */
export async function stopDaemon(env: Env = process.env): Promise<StopOutput> {
  const home = resolveHome(env);
  if (checkStateHome(home)) {
    const paths = statePaths(home);
    const lock = inspectLock(paths);
    if (lock.kind === 'running') {
      signal(lock.pid, 'SIGTERM');
      if (!(await exited(lock.pid, TERM_WAIT_MS))) {
        signal(lock.pid, 'SIGKILL');
        if (!(await exited(lock.pid, KILL_WAIT_MS)))
          throw new LifecycleError('failed', `the daemon (pid ${lock.pid}) did not exit after SIGKILL`);
      }
    }
    await removeStaleState(paths);
  }
  return StopOutputSchema.parse({ running: false });
}
