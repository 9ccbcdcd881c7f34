/**
 * Three loopback origins for the secrets suite: the bank (127.0.0.1, the origin a secret is added
 * for) with a login form whose password field is an <input type=text> (so a snapshot would show its
 * value), a look-alike serving the same form on another port of the same host, and a third site on
 * 127.0.0.2 whose copy of the form the bank's page holds in a cross-origin frame. Each server records
 * the logins it received, so a test checks what reached which site.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Login {
  site: 'bank' | 'lookalike' | 'framed';
  user: string;
  password: string;
}

export interface SecretSites {
  /** The bank's origin: what the secret is added for. */
  bankOrigin: string;
  /** The bank's login page. */
  login: string;
  /** The same form on another port of the same host. */
  lookalike: string;
  /** A page of the bank that holds the form of another site (127.0.0.2) in a frame. */
  framed: string;
  /** The origin of that frame. */
  frameOrigin: string;
  /** Every login any of the three received. */
  logins: Login[];
  close(): Promise<void>;
}

const html = (res: ServerResponse, body: string): void => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>${body}`);
};

const LOGIN_FORM = (title: string) => `<title>${title}</title>
<h1>${title}</h1>
<form method="post" action="/login">
  <label>User <input name="user" autocomplete="username"></label>
  <label>Password <input type="text" name="password" autocomplete="off"></label>
  <button type="submit">Sign in</button>
</form>`;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => resolve(body));
  });
}

async function site(
  host: string,
  name: Login['site'],
  logins: Login[],
  extra: (path: string, res: ServerResponse) => boolean = () => false,
): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path === '/login.html') return html(res, LOGIN_FORM(name === 'bank' ? 'Bank login' : 'Login'));
    if (path === '/login' && req.method === 'POST') {
      void readBody(req).then((body) => {
        const fields = new URLSearchParams(body);
        logins.push({ site: name, user: fields.get('user') ?? '', password: fields.get('password') ?? '' });
        // The site greets the user; it never echoes the password.
        html(res, `<title>Welcome</title><p role="status">Signed in as ${fields.get('user') ?? ''}</p>`);
      });
      return;
    }
    if (extra(path, res)) return;
    res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, origin: `http://${host}:${(server.address() as AddressInfo).port}` };
}

const close = (server: Server): Promise<void> =>
  new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

export async function serveSecretSites(): Promise<SecretSites> {
  const logins: Login[] = [];
  const framedSite = await site('127.0.0.2', 'framed', logins);
  const lookalike = await site('127.0.0.1', 'lookalike', logins);
  const bank = await site('127.0.0.1', 'bank', logins, (path, res) => {
    if (path !== '/framed.html') return false;
    html(
      res,
      `<title>Bank help</title><h1>Bank help</h1>
<iframe title="Partner login" src="${framedSite.origin}/login.html" width="480" height="260"></iframe>`,
    );
    return true;
  });
  return {
    bankOrigin: bank.origin,
    login: `${bank.origin}/login.html`,
    lookalike: `${lookalike.origin}/login.html`,
    framed: `${bank.origin}/framed.html`,
    frameOrigin: framedSite.origin,
    logins,
    close: async () => {
      await close(bank.server);
      await close(lookalike.server);
      await close(framedSite.server);
    },
  };
}
