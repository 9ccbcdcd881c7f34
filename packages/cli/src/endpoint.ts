/**
 * Finding the daemon of BPROXY_HOME before talking to it: a running daemon (lock held by a live
 * daemon process), its port and its token — each state file checked for owner, mode and symlinks.
 * The bearer token is only ever sent to a port read from a file we trust, of a daemon we verified.
 */
import {
  checkStateHome,
  inspectLock,
  isLifecycleError,
  readDaemonToken,
  readPortFile,
  resolveHome,
  statePaths,
  type Env,
} from '@bproxy/client/lifecycle';
import { CliError, EXIT, noDaemonError } from './cli-error';

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

export function findDaemon(env: Env): DaemonEndpoint {
  const home = resolveHome(env);
  try {
    return find(home);
  } catch (error) {
    if (isLifecycleError(error)) {
      throw new CliError(
        'UNSAFE_STATE_FILE',
        error.message,
        EXIT.failure,
        'Fix or remove the file, then run `bproxy service start`',
      );
    }
    throw error;
  }
}
