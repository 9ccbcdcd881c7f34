/**
 * Two loopback origins for the cross-origin frame tasks: a shop on 127.0.0.1 whose checkout holds its
 * card form in an iframe from a payment site on 127.0.0.2 (another port, and another site, so Chromium
 * puts it in a process of its own), a help widget from another port of the shop's own site (another
 * origin in the same process, whose document script can enter: both relax document.domain), plus a
 * sandboxed frame and one whose server refuses connections.
 * The payment server records what the card form sent, so a test checks what the site received.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FrameSites {
  /** The shop's checkout page (127.0.0.1). */
  checkout: string;
  /** The payment site's origin (127.0.0.2). */
  payOrigin: string;
  /** The help widget's origin: 127.0.0.1 on another port (same site as the shop, another origin). */
  helpOrigin: string;
  /** The src of the frame nobody answers (a port closed before the page is served). */
  refusedSrc: string;
  /** The charges the payment site received, as form fields. */
  charges: Record<string, string>[];
  close(): Promise<void>;
}

const html = (res: ServerResponse, body: string, headers: Record<string, string> = {}): void => {
  res
    .writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers })
    .end(`<!doctype html>${body}`);
};

/**
 * The shop and its help widget relax document.domain to their common host (a legacy pattern sites
 * still use between their own subdomains), which lets script in one enter the other's document though
 * their origins differ: such a frame is still another origin, marked as one.
 */
const SITE_KEYED = { 'origin-agent-cluster': '?0' };
const RELAX_DOMAIN = "<script>document.domain = '127.0.0.1';</script>";

async function listen(
  host: string,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<Server> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return server;
}

const portOf = (server: Server): number => (server.address() as AddressInfo).port;

const close = (server: Server): Promise<void> =>
  new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => resolve(body));
  });
}

const CARD_FORM = `<title>Card</title>
<form method="post" action="/charge">
  <label>Card number <input name="card" autocomplete="off"></label>
  <label>Expiry <input name="expiry" placeholder="MM/YY"></label>
  <label>Name on card <input name="holder"></label>
  <label>Country <select name="country"><option value="">Choose</option><option value="NL">Netherlands</option><option value="FR">France</option></select></label>
  <button type="submit">Pay 42.00</button>
</form>
<p><a href="/terms.html">Card terms</a></p>`;

export async function serveFrameSites(): Promise<FrameSites> {
  const charges: Record<string, string>[] = [];
  // A port that answered once and was closed: nothing listens there any more.
  const gone = await listen('127.0.0.1', () => undefined);
  const refusedPort = portOf(gone);
  await close(gone);

  const pay = await listen('127.0.0.2', (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/card.html') return html(res, CARD_FORM);
    if (path === '/terms.html')
      return html(res, '<title>Terms</title><p>Card terms: none worth reading.</p>');
    if (path === '/badge.html')
      return html(res, '<title>Badge</title><p>Secured badge</p><button>Badge info</button>');
    if (path === '/charge' && req.method === 'POST') {
      void readBody(req).then((body) => {
        const fields = Object.fromEntries(new URLSearchParams(body));
        charges.push(fields);
        html(res, `<title>Paid</title><p role="status">Payment accepted for ${fields.holder ?? ''}</p>`);
      });
      return;
    }
    res.writeHead(404).end('not found');
  });
  const payOrigin = `http://127.0.0.2:${portOf(pay)}`;
  const refusedSrc = `http://127.0.0.1:${refusedPort}/`;

  const help = await listen('127.0.0.1', (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/help.html')
      return html(
        res,
        `<title>Help</title>${RELAX_DOMAIN}<p>Questions about your order?</p><button>Chat with us</button>`,
        SITE_KEYED,
      );
    res.writeHead(404).end('not found');
  });
  const helpOrigin = `http://127.0.0.1:${portOf(help)}`;

  const shop = await listen('127.0.0.1', (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/checkout.html') return res.writeHead(404).end('not found');
    html(
      res,
      `<title>Checkout</title>${RELAX_DOMAIN}
<h1>Checkout</h1>
<p>Total: 42.00 EUR</p>
<label>Coupon <input id="coupon"></label>
<iframe title="Card payment" src="${payOrigin}/card.html" width="480" height="260"></iframe>
<iframe title="Badge" sandbox src="${payOrigin}/badge.html" width="200" height="80"></iframe>
<iframe title="Offline" src="${refusedSrc}" width="200" height="80"></iframe>
<iframe title="Help" src="${helpOrigin}/help.html" width="300" height="100"></iframe>`,
      SITE_KEYED,
    );
  });
  const shopOrigin = `http://127.0.0.1:${portOf(shop)}`;
  return {
    checkout: `${shopOrigin}/checkout.html`,
    payOrigin,
    helpOrigin,
    refusedSrc,
    charges,
    close: async () => {
      await close(shop);
      await close(pay);
      await close(help);
    },
  };
}
