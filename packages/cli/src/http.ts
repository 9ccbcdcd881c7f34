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

export function timeoutError(timeoutMs: number): CliError {
  return new CliError(
    'TIMEOUT',
    `the daemon did not answer within ${Math.round(timeoutMs / 1000)} s`,
    EXIT.failure,
    'Retry with a longer --timeout; see `bproxy debug last`',
  );
}

/** "Connection refused" means no daemon; anything else is a local failure to reach it. */
export function connectError(endpoint: DaemonEndpoint, code: unknown, message: string): CliError {
  if (code === 'ECONNREFUSED')
    return noDaemonError(endpoint.home, `nothing listens on port ${endpoint.port}`);
  return new CliError(
    'LOCAL_ERROR',
    `cannot reach the daemon on port ${endpoint.port}: ${message}`,
    EXIT.failure,
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
