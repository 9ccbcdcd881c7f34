/**
 * A static server for the fixture pages of tests/fixtures/pages (and the libraries under /vendor/ they
 * load) that also counts beacon hits.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { vendorFile } from '../fixtures/vendor';
import { ROOT } from './paths';

const PAGES_DIR = join(ROOT, 'tests', 'fixtures', 'pages');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.png': 'image/png',
};

export interface FixtureServer {
  origin: string;
  url(page: string): string;
  /** Beacon hits per path (the counter page posts /count/click on every click). */
  hits(path: string): number;
  /** The bytes the upload page posted under a file name (`POST /upload/NAME`), the last ones. */
  received(name: string): Buffer | undefined;
  close(): Promise<void>;
}

/** The bytes `/download/NAME?bytes=N` answers: N lines' worth of a known text, cut at N. */
export function downloadBytes(n: number): Buffer {
  const line = 'bproxy fixture download, line of known text\n';
  return Buffer.from(line.repeat(Math.ceil(n / line.length) + 1).slice(0, n), 'utf8');
}

/** `host`: another loopback address (127.0.0.2) makes another site, whose frames Chromium puts in a process of their own. */
export async function serveFixtures(host = '127.0.0.1'): Promise<FixtureServer> {
  const hits = new Map<string, number>();
  const uploads = new Map<string, Buffer>();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    // A resource that answers after ?ms= (at most 5 s): holds a page's load event for the waits suite.
    if (path.startsWith('/slow/')) {
      const ms = Math.min(
        5_000,
        Number(new URL(req.url ?? '/', 'http://x').searchParams.get('ms') ?? 0) || 0,
      );
      setTimeout(() => {
        if (!res.writableEnded) res.writeHead(200, { 'content-type': 'text/plain' }).end('slow');
      }, ms).unref();
      return;
    }
    if (req.method === 'POST' && path.startsWith('/upload/')) {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        uploads.set(decodeURIComponent(path.slice('/upload/'.length)), Buffer.concat(chunks));
        res.writeHead(204).end();
      });
      return;
    }
    // A generated download: NAME with ?bytes=N of downloadBytes(N), as an attachment.
    if (path.startsWith('/download/')) {
      const name = decodeURIComponent(path.slice('/download/'.length));
      const bytes = Math.min(
        10_000_000,
        Number(new URL(req.url ?? '/', 'http://x').searchParams.get('bytes') ?? 0) || 0,
      );
      res
        .writeHead(200, {
          'content-type': 'application/octet-stream',
          'content-disposition': `attachment; filename="${name.replace(/["\\]/g, '_')}"`,
          'content-length': String(bytes),
        })
        .end(downloadBytes(bytes));
      return;
    }
    if (path.startsWith('/count/')) {
      hits.set(path, (hits.get(path) ?? 0) + 1);
      res.writeHead(204).end();
      return;
    }
    const file = vendorFile(path) ?? normalize(join(PAGES_DIR, path === '/' ? 'index.html' : path));
    const ours = file.startsWith(PAGES_DIR) || vendorFile(path) !== null;
    if (!ours || !existsSync(file)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res
      .writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
      .end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('fixture server has no port');
  const origin = `http://${host}:${address.port}`;
  return {
    origin,
    url: (page) => `${origin}/${page}`,
    hits: (path) => hits.get(path) ?? 0,
    received: (name) => uploads.get(name),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
