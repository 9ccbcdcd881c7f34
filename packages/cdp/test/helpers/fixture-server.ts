/**
 * Serves tests/fixtures/pages on 127.0.0.1, port 0. Paths under /spa/ get spa.html (a client-side
 * router); /slow waits for its ?ms before answering, for tests that need a request in flight.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PAGES_DIR = fileURLToPath(new URL('../../../../tests/fixtures/pages', import.meta.url));

export interface FixtureServer {
  origin: string;
  url(path: string): string;
  /** Resolves when a request for this pathname arrives (now or later). */
  requested(pathname: string): Promise<void>;
  close(): Promise<void>;
}

export async function startFixtureServer(): Promise<FixtureServer> {
  const seen = new Set<string>();
  const waiters = new Map<string, (() => void)[]>();
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      seen.add(url.pathname);
      for (const wake of waiters.get(url.pathname) ?? []) wake();
      waiters.delete(url.pathname);
      if (url.pathname === '/slow') {
        const ms = Math.min(Number(url.searchParams.get('ms') ?? '1000'), 30_000);
        setTimeout(() => res.end('<title>Slow</title><p>slow page</p>'), ms);
        return;
      }
      const name = url.pathname.startsWith('/spa/')
        ? 'spa.html'
        : url.pathname === '/'
          ? 'list.html'
          : url.pathname.slice(1);
      const file = normalize(join(PAGES_DIR, name));
      if (!file.startsWith(PAGES_DIR)) {
        res.writeHead(403).end();
        return;
      }
      try {
        const body = await readFile(file);
        res.writeHead(200, {
          'content-type': file.endsWith('.html') ? 'text/html; charset=utf-8' : 'application/octet-stream',
        });
        res.end(body);
      } catch {
        res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title><p>not found</p>');
      }
    })();
  });
  // Keep-alive sockets would hold close() open until they time out.
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: (path) => `${origin}${path.startsWith('/') ? path : `/${path}`}`,
    requested: (pathname) =>
      new Promise<void>((resolve) => {
        if (seen.has(pathname)) resolve();
        else waiters.set(pathname, [...(waiters.get(pathname) ?? []), resolve]);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
