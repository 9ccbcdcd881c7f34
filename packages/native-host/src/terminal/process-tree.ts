/**
 * Ending what a terminal started, all of it. A PTY's first process leads a session of its own (setsid)
 * and its process group; a shell with job control puts each background job into a group of its own in
 * the same session, so signalling the first group alone would leave `sleep 1000 &` running, orphaned.
 * On Linux the session's members are read from /proc (field 6 of /proc/PID/stat); elsewhere the group
 * is what we can reach.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** The pids of the processes in session `sid` (Linux), the leader included when it still runs. */
export function sessionMembers(sid: number): number[] {
  if (process.platform !== 'linux') return [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const members: number[] = [];
  for (const entry of entries) {
    if (!/^[0-9]+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its end.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // A zombie has ended already: only its parent's wait is missing.
    if (fields[0] !== 'Z' && Number(fields[3]) === sid) members.push(Number(entry));
  }
  return members;
}

/**
 * Sends `signal` to every member of the session led by `leader` and, unless `group` is false (the
 * leader was reaped: its pid may name someone else's group now), to the leader's group; never throws.
 */
export function signalSession(leader: number, signal: NodeJS.Signals, group = true): void {
  const targets = new Set<number>(group ? [-leader] : []);
  for (const pid of sessionMembers(leader)) targets.add(pid);
  for (const target of targets) {
    try {
      process.kill(target, signal);
    } catch {
      // Already gone (ESRCH), or not ours.
    }
  }
}

/** Whether anything of the session (or the group) is still there. */
export function sessionAlive(leader: number): boolean {
  if (sessionMembers(leader).length > 0) return true;
  try {
    process.kill(-leader, 0);
    return true;
  } catch {
    return false;
  }
}
