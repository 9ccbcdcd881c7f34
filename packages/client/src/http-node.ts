/**
 * POST / over node:http. One-shot clients (a CLI run) use no agent — one request, no keep-alive to
 * hold the process open; long-lived ones (the MCP server) keep one agent so that an agent's clicks do
 * not pay a TCP handshake each. node:http is imported on first use: a static import would cost the
 * compiled CLI ~3 ms at every start, whether or not it talks to the daemon.
 */
import type { Agent, request as httpRequest } from 'node:http';
import { TransportError, type HttpReply, type HttpTarget, type KeepAlive, type Transport } from './http';

export async function nodeTransport(keepAlive: KeepAlive | null): Promise<Transport> {
  const http = await import('node:http');
  let agent: Agent | false =
    keepAlive === null ? false : new http.Agent({ keepAlive: true, maxSockets: keepAlive.maxSockets });
  return {
    post: (target, body, timeoutMs) => post(http.request, agent, target, body, timeoutMs),
    reset() {
      if (agent !== false) agent.destroy();
    },
    close() {
      if (agent !== false) agent.destroy();
      // A closed transport may still be asked for a last request: on a socket of its own, not kept.
      agent = false;
    },
  };
}

function post(
  request: typeof httpRequest,
  agent: Agent | false,
  target: HttpTarget,
  body: string,
  timeoutMs: number,
): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: target.port,
        method: 'POST',
        path: '/',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          authorization: `Bearer ${target.token}`,
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
    let timedOut: TransportError | null = null;
    const timer = setTimeout(() => {
      timedOut = new TransportError('timeout', `no answer within ${Math.round(timeoutMs / 1000)} s`);
      req.destroy(timedOut);
    }, timeoutMs);
    req.on('close', () => clearTimeout(timer));
    req.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      // The timeout's own error passes through as it is; socket failures say what happened.
      if (error === timedOut) return reject(error);
      const failure =
        error.code === 'ECONNREFUSED'
          ? 'refused'
          : error.code === 'ECONNRESET' && req.reusedSocket
            ? 'stale-socket'
            : 'failed';
      reject(new TransportError(failure, error.message));
    });
    req.end(body);
  });
}
