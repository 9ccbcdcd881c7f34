/**
 * An impostor daemon, through the real extension: pair with the real daemon, stop it, and let another
 * process listen on the same port — accepting any subprotocol, answering `hello` with `welcome` and a
 * request to open a page and read it. The extension must give it no token (nothing derived from the
 * token either) and run nothing it asks; the popup must say something else is listening. Then the
 * real daemon comes back on that port and the extension reconnects without a new pairing.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { join } from 'node:path';
import { DEFAULT_EXTENSION_ID, PROTOCOL_VERSION, freshNonce, type ProofAnswer } from '@bproxy/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { launchWithExtension, pair, type ExtensionBrowser } from '../kit/extension';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { until } from '../kit/wait';
import { Agent } from '../kit/agent';
import { expectNoChromiumLeft } from '../kit/chromium';
import { Cli } from '../kit/cli';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A listener on the daemon's port that plays the daemon as far as it can without the token. */
class Impostor {
  readonly seen: Seen[] = [];
  upgrades = 0;
  challenges = 0;
  private readonly server: Server;
  private readonly wss = new WebSocketServer({ noServer: true, handleProtocols: (p) => [...p][0] ?? false });

  constructor(replayed: ProofAnswer, targetUrl: string) {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        this.seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        if (req.url !== '/pair/proof') return res.writeHead(404).end();
        this.challenges += 1;
        // Alternate a proof replayed from the real daemon and a reflection of the extension's nonce.
        const clientNonce = (JSON.parse(body) as { clientNonce: string }).clientNonce;
        const answer =
          this.challenges % 2 === 1 || !replayed.ok
            ? replayed
            : { ok: true, data: { serverNonce: clientNonce, proof: replayed.data.proof } };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      });
    });
    this.server.on('upgrade', (req, socket, head) => {
      this.upgrades += 1;
      this.seen.push({ method: 'UPGRADE', url: req.url ?? '', headers: req.headers, body: '' });
      this.wss.handleUpgrade(req, socket, head, (ws) => {
        ws.on('message', () => {
          ws.send(
            JSON.stringify({ type: 'welcome', protocolVersion: PROTOCOL_VERSION, clientName: 'chrome' }),
          );
          ws.send(
            JSON.stringify({
              type: 'request',
              request: {
                id: 'impostor-1',
                action: 'tab.open',
                params: { url: targetUrl },
                deadline: Date.now() + 10_000,
              },
            }),
          );
        });
      });
    });
  }

  listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => resolve());
    });
  }

  close(): Promise<void> {
    for (const client of this.wss.clients) client.terminate();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A page the impostor wants opened; it counts every load. */
async function bait(): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server = createServer((_req, res) => {
    hits += 1;
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>secret inbox</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}/inbox`,
    hits: () => hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function realProof(port: number): Promise<ProofAnswer> {
  const res = await fetch(`http://127.0.0.1:${port}/pair/proof`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: `chrome-extension://${DEFAULT_EXTENSION_ID}` },
    body: JSON.stringify({ clientNonce: freshNonce() }),
  });
  return (await res.json()) as ProofAnswer;
}

let cli: Cli | undefined;
let browser: ExtensionBrowser | undefined;
let pages: FixtureServer | undefined;
let impostor: Impostor | undefined;
let target: Awaited<ReturnType<typeof bait>> | undefined;

afterAll(async () => {
  const dirs = [browser?.userDataDir, cli?.home].filter((d): d is string => d !== undefined);
  await impostor?.close().catch(() => {});
  await target?.close();
  await browser?.close();
  await cli?.dispose();
  await pages?.close();
  await expectNoChromiumLeft(dirs);
}, 60_000);

describe('a process listening on the daemon’s port while the daemon is down', () => {
  it('gets no token and no obedience, and the real daemon is welcomed back without re-pairing', async () => {
    pages = await serveFixtures();
    target = await bait();
    const c = new Cli('bproxy-e2e-impostor-');
    cli = c;
    const started = await c.start(['--browser', 'none']);
    browser = await launchWithExtension();
    await pair(browser, started.pairingCode, started.port);
    const status = async () =>
      c.ok<{ clients: { name: string; kind: string; connected: boolean }[] }>(['debug', 'status']);
    await until('the extension to connect', async () =>
      (await status()).clients.some((client) => client.kind === 'extension' && client.connected),
    );
    const token = readFileSync(join(c.home, 'extension-token'), 'utf8').trim();
    const replayed = await realProof(started.port);
    expect(replayed.ok).toBe(true);

    await c.stop();
    impostor = new Impostor(replayed, target.url);
    await impostor.listen(started.port);

    // The popup polls the worker every second, which also wakes it to retry.
    const popup = await browser.context.newPage();
    await popup.goto(`chrome-extension://${browser.extensionId}/popup.html`);
    const imp = impostor;
    await until('the extension to challenge the impostor several times', () => imp.challenges >= 4, 30_000);
    const problem = await until(
      'the popup to name the impostor',
      async () => {
        const text = (await popup.textContent('#problem')) ?? '';
        return text.includes('something else is listening') ? text : undefined;
      },
      15_000,
    );
    expect(problem).toContain(`port ${started.port}`);

    expect(imp.upgrades).toBe(0);
    const everything = JSON.stringify(imp.seen);
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(Buffer.from(token).toString('base64url'));
    expect(everything).not.toContain('auth.');
    // Only two kinds of request reach it: the popup's reachability probe and the proof challenge.
    for (const request of imp.seen) {
      if (request.method === 'GET' && request.url === '/') {
        expect(request.body).toBe('');
        expect(request.headers.authorization).toBeUndefined();
        continue;
      }
      expect(`${request.method} ${request.url}`).toBe('POST /pair/proof');
      expect(Object.keys(JSON.parse(request.body) as object)).toEqual(['clientNonce']);
    }
    expect(target.hits()).toBe(0);
    expect(browser.context.pages().some((p) => p.url().startsWith(target?.url ?? '-'))).toBe(false);

    await imp.close();
    impostor = undefined;
    c.usePort(started.port);
    const again = await c.start(['--browser', 'none']);
    expect(again.port).toBe(started.port);
    const back = await until(
      'the extension to reconnect to the real daemon without pairing',
      async () => (await status()).clients.find((client) => client.kind === 'extension' && client.connected),
      20_000,
    );
    await until('the popup to drop the warning', async () => {
      const text = (await popup.textContent('#problem')) ?? '';
      return !text.includes('something else is listening');
    });
    const agent = new Agent({ cli: c, pages, browser: back.name });
    const s = await agent.session('ext-done.html');
    expect(await agent.text(s)).toContain('Done');
    await agent.close(s);
    await popup.close();
    expect(target.hits()).toBe(0);
  }, 90_000);
});
