/**
 * `bproxy service status`. Running means: the lockfile names a live process that is our daemon
 * (not merely a live PID) and the port file holds a valid port — the readiness boundary.
 */
import { checkStateHome, inspectLock, readPortFile, resolveHome, statePaths } from '@bproxy/client/lifecycle';
import { PROTOCOL_VERSION, BPROXY_VERSION, StatusOutputSchema } from '@bproxy/protocol';
import { printJson } from '../output';
import { asServiceError } from './service-errors';

export type StatusOutput = ReturnType<typeof StatusOutputSchema.parse>;

export function readStatus(home: string): StatusOutput {
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

export async function serviceStatus(pretty: boolean): Promise<void> {
  await asServiceError(async () => {
    printJson(readStatus(resolveHome(process.env)), pretty);
  });
}
