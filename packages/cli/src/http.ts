/**
 * POST / to the daemon, over the transport that is cheapest to start in the running runtime: Bun's
 * built-in fetch in the compiled binary (node:http there costs milliseconds to initialise), node:http
 * under Node (whose fetch loads undici lazily, slower still). Both map failures the same way.
 */
import { CliError, EXIT, noDaemonError } from './cli-error';
import type { DaemonEndpoint } from './endpoint';
import { IS_BUN } from './runtime';

export interface HttpReply {
  readonly status: number;
  readonly body: string;
}

export type PostCommand = (endpoint: DaemonEndpoint, body: string, timeoutMs: number) => Promise<HttpReply>;

/** The daemon kept silent past the deadline and its grace: unlike its own TIMEOUT, the request may still run. */
export function timeoutError(timeoutMs: number): CliError {
  return new CliError(
    'DAEMON_UNREACHABLE',
    `the daemon did not answer within ${Math.round(timeoutMs / 1000)} s`,
    EXIT.failure,
    'Check `bproxy debug last` before retrying: the request may still have run',
  );
}

/** "Connection refused" means no daemon; anything else is a local failure to reach it. */
export function connectError(endpoint: DaemonEndpoint, code: unknown, message: string): CliError {
  if (code === 'ECONNREFUSED')
    return noDaemonError(endpoint.home, `nothing listens on port ${endpoint.port}`);
  return new CliError(
    'DAEMON_UNREACHABLE',
    `cannot reach the daemon on port ${endpoint.port}: ${message}`,
    EXIT.failure,
    'Check `bproxy service status`',
  );
}

export async function postCommand(
  endpoint: DaemonEndpoint,
  body: string,
  timeoutMs: number,
): Promise<HttpReply> {
  const transport: { postCommand: PostCommand } = IS_BUN
    ? await import('./http-fetch')
    : await import('./http-node');
  return transport.postCommand(endpoint, body, timeoutMs);
}
