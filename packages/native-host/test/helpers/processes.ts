/**
 * What the operating system says about a process, for the terminal tests (Linux /proc): its children,
 * whether it still runs (a zombie counts as gone), and whether it holds a listening socket.
 */
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** Whether `pid` runs (not gone, not a zombie). */
export function alive(pid: number): boolean {
  const fields = statFields(pid);
  return fields !== null && fields[0] !== 'Z';
}

/** The live processes whose parent is `pid`. */
export function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^[0-9]+$/.test(entry))
    .map(Number)
    .filter((child) => {
      const fields = statFields(child);
      return fields !== null && fields[0] !== 'Z' && Number(fields[1]) === pid;
    });
}

/** The inodes of the sockets `pid` holds open. */
function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[([0-9]+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match?.[1] !== undefined) inodes.add(match[1]);
    } catch {
      // closed meanwhile
    }
  }
  return inodes;
}

/** The sockets of `pid` that listen: TCP in state LISTEN (0A), Unix sockets accepting (flag 00010000). */
export function listeningSockets(pid: number): string[] {
  const mine = socketInodes(pid);
  const found: string[] = [];
  for (const table of ['tcp', 'tcp6']) {
    for (const line of readFileSync(`/proc/net/${table}`, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[3] === '0A' && cols[9] !== undefined && mine.has(cols[9])) found.push(`${table} ${cols[1]}`);
    }
  }
  for (const line of readFileSync('/proc/net/unix', 'utf8').split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    if (cols[3] === '00010000' && cols[6] !== undefined && mine.has(cols[6]))
      found.push(`unix ${cols[7] ?? ''}`);
  }
  return found;
}
