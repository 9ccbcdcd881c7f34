/**
 * Waiting for a process that is not our child to exit. No event reports that, so this polls
 * `kill(pid, 0)` with a bound; it is used only after the bridge itself asked the process to stop.
 */
import { readFileSync } from 'node:fs';

/** A zombie has exited; only its parent has not collected it yet (in containers, maybe never). */
function isZombie(pid: number): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/** True when the process was gone within `timeoutMs`. */
export async function waitForExit(pid: number, timeoutMs: number, stepMs = 50): Promise<boolean> {
  const end = performance.now() + timeoutMs;
  while (processAlive(pid)) {
    if (performance.now() > end) return false;
    await new Promise((done) => setTimeout(done, stepMs));
  }
  return true;
}
