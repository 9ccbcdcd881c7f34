/**
 * Two loopback origins for the site-policy suite: a home site on 127.0.0.1 whose start page leads to
 * a second site on 127.0.0.2 in every way a page can — a link, a target=_blank link, window.open, and
 * a route that answers 302 to it, a page whose script goes there — and the second site, which counts the pages it served (what the
 * browser fetched there). The suite denies the second origin in policy.json.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PolicySites {
  /** The home site's start page. */
  start: string;
  /** A second page on the home site. */
  other: string;
  /** The home route that redirects (302) to the denied site. */
  redirect: string;
  /** A home page whose script sends the tab to the denied site as it loads. */
  scripted: string;
  /** The origin the suite denies (127.0.0.2, its own port). */
  deniedOrigin: string;
  /** The pages the denied site served, by path. */
  served(path: string): number;
  close(): Promise<void>;
}

const html = (res: ServerResponse, body: string): void => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>${body}`);
};

async function listen(
  host: string,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<Server> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return server;
}

const close = (server: Server): Promise<void> =>
  new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

export async function servePolicySites(): Promise<PolicySites> {
  const counts = new Map<string, number>();
  const denied = await listen('127.0.0.2', (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path === '/favicon.ico') return void res.writeHead(404).end();
    counts.set(path, (counts.get(path) ?? 0) + 1);
    html(res, `<title>Bank</title><h1>Bank</h1><p>Balance: 1,000,000</p>`);
  });
  const deniedOrigin = `http://127.0.0.2:${(denied.address() as AddressInfo).port}`;
  const home = await listen('127.0.0.1', (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path === '/go') return void res.writeHead(302, { location: `${deniedOrigin}/redirected.html` }).end();
    if (path === '/other.html') return html(res, '<title>Other</title><p>Another page of the home site</p>');
    if (path === '/script-go.html')
      return html(
        res,
        `<title>Away</title><script>location.href = '${deniedOrigin}/scripted.html';</script>`,
      );
    if (path === '/start.html')
      return html(
        res,
        `<title>Start</title>
<p><a id="same" href="/other.html">Other page</a></p>
<p><a id="away" href="${deniedOrigin}/link.html">Bank</a></p>
<p><a id="blank" target="_blank" href="${deniedOrigin}/blank.html">Bank in a new tab</a></p>
<p><button id="popup" onclick="window.open('${deniedOrigin}/popup.html', 'bank', 'width=400,height=300')">Open the bank</button></p>
<p><a id="redirect" href="/go">Through a redirect</a></p>`,
      );
    res.writeHead(404).end();
  });
  const origin = `http://127.0.0.1:${(home.address() as AddressInfo).port}`;
  return {
    start: `${origin}/start.html`,
    other: `${origin}/other.html`,
    redirect: `${origin}/go`,
    scripted: `${origin}/script-go.html`,
    deniedOrigin,
    served: (path) => counts.get(path) ?? 0,
    close: async () => {
      await close(home);
      await close(denied);
    },
  };
}
