/**
 * Is PID N our daemon? A PID in a lockfile outlives its process and the kernel hands numbers out
 * again, so "alive" is not enough: on Linux we also read /proc/N/cmdline (the script must be the
 * daemon entry) and /proc/N/environ (its BPROXY_HOME must be ours). A zombie — exited, not yet reaped,
 * which happens to detached daemons under a PID 1 that does not reap — counts as dead.
 * Elsewhere (no /proc) a live PID is taken as ours: the best the platform offers without new deps.
 */
import { existsSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { errnoCode } from './errors';

export type ProcessState = 'alive' | 'dead' | 'other-user';

/** Script names the daemon runs as: the built bundle, or the source entry under tsx. */
export function isDaemonEntry(arg: string): boolean {
  const normalized = arg.replaceAll('\\', '/');
  return (
    normalized === 'daemon.mjs' ||
    normalized.endsWith('/daemon.mjs') ||
    normalized.endsWith('/daemon/src/main.ts')
  );
}

const HAS_PROC = existsSync('/proc/self/stat');

function readProc(pid: number, file: string): string | null {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'latin1');
  } catch {
    return null;
  }
}

function isZombie(pid: number): boolean {
  const stat = readProc(pid, 'stat');
  if (stat === null) return false;
  // The command name in parentheses may itself contain ") "; the state follows the last ")".
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state === 'Z' || state === 'X';
}

export function processState(pid: number): ProcessState {
  if (!Number.isSafeInteger(pid) || pid <= 0) return 'dead';
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: the process exists but is not ours to signal, so it cannot be our daemon either.
    return errnoCode(error) === 'EPERM' ? 'other-user' : 'dead';
  }
  if (HAS_PROC && isZombie(pid)) return 'dead';
  return 'alive';
}

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function readlinkOrNull(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}

/** The BPROXY_HOME a process was started with, as the daemon's own config would resolve it. */
function environHome(environ: string, cwd: string): string {
  const env = new Map<string, string>();
  for (const entry of environ.split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0) env.set(entry.slice(0, eq), entry.slice(eq + 1));
  }
  const raw = env.get('BPROXY_HOME');
  if (raw !== undefined && raw !== '') return resolve(cwd, raw);
  return join(env.get('HOME') ?? homedir(), '.bproxy');
}

export type DaemonIdentityCheck = (pid: number, home: string) => boolean;

/** True when `pid` is alive and is the bproxy daemon of the state directory `home`. */
export const isOurDaemon: DaemonIdentityCheck = (pid, home) => {
  if (processState(pid) !== 'alive') return false;
  if (!HAS_PROC) return true;
  const cmdline = readProc(pid, 'cmdline');
  const environ = readProc(pid, 'environ');
  if (cmdline === null || environ === null) return false;
  // argv[0] is the runtime; runtime flags (--import tsx) may come before the script.
  if (!cmdline.split('\0').slice(1).some(isDaemonEntry)) return false;
  const cwd = readlinkOrNull(`/proc/${pid}/cwd`) ?? process.cwd();
  return canonical(environHome(environ, cwd)) === canonical(home);
};
