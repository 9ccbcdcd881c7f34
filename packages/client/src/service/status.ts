/**
 * Whether the daemon of BPROXY_HOME runs (`bproxy service status`). Running means: the lockfile
 * names a live process that is our daemon (not merely a live PID) and the port file holds a valid
 * port — the readiness boundary.
 */
import { PROTOCOL_VERSION, BPROXY_VERSION, StatusOutputSchema } from '@bproxy/protocol';
import { resolveHome, type Env } from '../lifecycle/config';
import { inspectLock } from '../lifecycle/lockfile';
import { statePaths } from '../lifecycle/paths';
import { readPortFile } from '../lifecycle/port-file';
import { checkStateHome } from '../lifecycle/state-home';

export type StatusOutput = ReturnType<typeof StatusOutputSchema.parse>;

/** The lifecycle contract's status output; throws a LifecycleError on an unsafe state file. */
export function daemonStatus(env: Env = process.env): StatusOutput {
  const home = resolveHome(env);
  const notRunning: StatusOutput = {
    running: false,
    version: BPROXY_VERSION,
    protocolVersion: PROTOCOL_VERSION,
  };
  if (!checkStateHome(home)) return notRunning;
  const paths = statePaths(home);
  const lock = inspectLock(paths);
  if (lock.kind !== 'running') return notRunning;
  const port = readPortFile(paths);
  if (port === null) return notRunning;
  return StatusOutputSchema.parse({
    running: true,
    pid: lock.pid,
    port,
    version: BPROXY_VERSION,
    protocolVersion: PROTOCOL_VERSION,
  });
}
