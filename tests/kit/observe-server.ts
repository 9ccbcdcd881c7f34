/**
 * Two loopback origins for the console and network suite: the page's own (observe.html and its
 * stylesheet, an API that
 * answers 422 with a cookie, 500, and a long body) and another one whose API sends no CORS header, so
 * that the page's fetch there fails as a CORS failure.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { ROOT } from './paths';

export const SECRETS = {
  authorization: 'secret-token-7731',
  cookie: 'cookie-secret-9902',
  setCookie: 'secret-cookie-4410',
} as const;

/** The long body /api/big answers: past what network get inlines. */
export const BIG_BODY = 'observe-body '.repeat(800);

export interface ObserveServer {
  /** observe.html on the first origin, its fetches to the other origin. */
  pageUrl: string;
  origin: string;
  otherOrigin: string;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('observe server has no port');
  return `http://127.0.0.1:${address.port}`;
}

export async function serveObserve(): Promise<ObserveServer> {
  const page = readFileSync(join(ROOT, 'tests', 'fixtures', 'pages', 'observe.html'));
  const main = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/observe.html')
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    else if (path === '/observe.css')
      res.writeHead(200, { 'content-type': 'text/css' }).end('#out { color: #b91c1c; }');
    else if (path === '/api/cart')
      res
        .writeHead(422, {
          'content-type': 'application/json',
          'set-cookie': `sid=${SECRETS.setCookie}; Path=/; HttpOnly`,
        })
        .end('{"error":"card declined"}');
    else if (path === '/api/boom')
      res.writeHead(500, { 'content-type': 'text/plain' }).end('server exploded');
    else if (path === '/api/big') res.writeHead(200, { 'content-type': 'text/plain' }).end(BIG_BODY);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  // No Access-Control-Allow-Origin: the page's fetch from the first origin fails CORS.
  const other = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/plain' }).end('other data'),
  );
  const origin = await listen(main);
  const otherOrigin = await listen(other);
  const close = (s: Server) =>
    new Promise<void>((resolve) => {
      s.closeAllConnections();
      s.close(() => resolve());
    });
  return {
    origin,
    otherOrigin,
    pageUrl: `${origin}/observe.html?other=${encodeURIComponent(otherOrigin)}`,
    close: async () => {
      await close(main);
      await close(other);
    },
  };
}
