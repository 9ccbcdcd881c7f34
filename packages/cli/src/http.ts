/**
 * POST / over node:http: no agent (one request, no keep-alive to hold the process open), a hard
 * socket deadline a little after the request's own, and "connection refused" mapped to "no daemon".
 */
import { request } from 'node:http';
import { CliError, EXIT, noDaemonError } from './cli-error';
import type { DaemonEndpoint } from './endpoint';

export interface HttpReply {
  readonly status: number;
  readonly body: string;
}

export function postCommand(endpoint: DaemonEndpoint, body: string, timeoutMs: number): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: endpoint.port,
        method: 'POST',
        path: '/',
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          authorization: `Bearer ${endpoint.token}`,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    const timer = setTimeout(() => {
      req.destroy(
        new CliError(
          'TIMEOUT',
          `the daemon did not answer within ${Math.round(timeoutMs / 1000)} s`,
          EXIT.failure,
          'Retry with a longer --timeout; see `bproxy debug last`',
        ),
      );
    }, timeoutMs);
    req.on('close', () => clearTimeout(timer));
    req.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (error.code === 'ECONNREFUSED')
        reject(noDaemonError(endpoint.home, `nothing listens on port ${endpoint.port}`));
      else if (error instanceof CliError) reject(error);
      else
        reject(
          new CliError(
            'LOCAL_ERROR',
            `cannot reach the daemon on port ${endpoint.port}: ${error.message}`,
            EXIT.failure,
          ),
        );
    });
    req.end(body);
  });
}
