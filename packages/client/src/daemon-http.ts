/**
 * The client side of the daemon's command route: one `POST /` with the bearer token on 127.0.0.1,
 * answering the raw status and body. Shared by the CLI and the MCP server, which each turn transport
 * failures into their own errors. node:http is imported on first use: a static import would cost the
 * compiled CLI ~3 ms at every start, whether or not it talks to the daemon.
 */
import type { Agent } from 'node:http';

export interface DaemonHttpEndpoint {
  readonly port: number;
  readonly token: string;
}

export interface DaemonHttpReply {
  status: number;
  body: string;
}

/** A transport failure: the errno code, and whether a reused keep-alive socket carried the request. */
export class DaemonHttpError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly reusedSocket: boolean,
  ) {
    super(message);
  }
}

export interface PostOptions {
  /** false: a fresh connection, closed after the answer (one-shot processes). */
  agent: Agent | false;
  /** Socket deadline; `onTimeout` makes the error the request then fails with. */
  timeoutMs: number;
  onTimeout: () => Error;
}

export async function postToDaemon(
  endpoint: DaemonHttpEndpoint,
  body: string,
  options: PostOptions,
): Promise<DaemonHttpReply> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: endpoint.port,
        method: 'POST',
        path: '/',
        agent: options.agent,
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
    let timedOut: Error | null = null;
    const timer = setTimeout(() => {
      timedOut = options.onTimeout();
      req.destroy(timedOut);
    }, options.timeoutMs);
    req.on('close', () => clearTimeout(timer));
    req.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      // The timeout's own error passes through as it is; socket failures say what happened.
      if (error === timedOut) return reject(error);
      reject(new DaemonHttpError(error.message, error.code, req.reusedSocket));
    });
    req.end(body);
  });
}
