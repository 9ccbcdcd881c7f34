/**
 * Finding the daemon of BPROXY_HOME before talking to it: a running daemon (lock held by a live
 * daemon process), its port and its token — each state file checked for owner, mode and symlinks.
 * The bearer token is only ever sent to a port read from a file we trust, of a daemon we verified.
 * Imports the lifecycle modules one by one, never their index: that one loads zod (pairing.json).
 */
import { resolveHome, type Env } from './lifecycle/config';
import { readDaemonToken } from './lifecycle/daemon-token';
import { isLifecycleError } from './lifecycle/errors';
import { inspectLock } from './lifecycle/lockfile';
import { statePaths } from './lifecycle/paths';
import { readPortFile } from './lifecycle/port-file';
import { checkStateHome } from './lifecycle/state-home';
import { ClientError, noDaemonError } from './errors';

export interface DaemonEndpoint {
  readonly home: string;
  readonly port: number;
  readonly token: string;
}

function find(home: string): DaemonEndpoint {
  if (!checkStateHome(home)) throw noDaemonError(home, 'the state directory does not exist');
  const paths = statePaths(home);
  const lock = inspectLock(paths);
  if (lock.kind === 'missing') throw noDaemonError(home, 'no bproxy.pid');
  if (lock.kind !== 'running') throw noDaemonError(home, 'bproxy.pid names no running daemon');
  const port = readPortFile(paths);
  if (port === null) throw noDaemonError(home, 'it has not written its port yet');
  const token = readDaemonToken(paths);
  if (token === null) throw noDaemonError(home, 'its token file is missing');
  return { home, port, token };
}

/** The running daemon of BPROXY_HOME; a ClientError NO_DAEMON or UNSAFE_STATE_FILE otherwise. */
export function findDaemon(env: Env = process.env): DaemonEndpoint {
  const home = resolveHome(env);
  try {
    return find(home);
  } catch (error) {
    if (isLifecycleError(error)) throw new ClientError('UNSAFE_STATE_FILE', error.message);
    throw error;
  }
}
