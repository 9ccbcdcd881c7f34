/**
 * POST / over node:http: no agent (one request, no keep-alive to hold the process open) and a hard
 * socket deadline a little after the request's own. node:http is imported when used: Bun's bundler
 * hoists a static import of it to start-up, where it costs the compiled binary ~3 ms on every run.
 */
import { CliError } from './cli-error';
import { connectError, timeoutError, type PostCommand } from './http';

export const postCommand: PostCommand = async (endpoint, body, timeoutMs) => {
  const { request } = await import('node:http');
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
    const timer = setTimeout(() => req.destroy(timeoutError(timeoutMs)), timeoutMs);
    req.on('close', () => clearTimeout(timer));
    req.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(error instanceof CliError ? error : connectError(endpoint, error.code, error.message));
    });
    req.end(body);
  });
};
