import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import pino from 'pino';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CdpTransport } from '@bproxy/cdp/wire';
import { checkGate, sameSecret } from '../src/upstream/endpoint-gate';
import { startEndpoint, type Endpoint } from '../src/upstream/endpoint-server';

const TOKEN = 'endpoint-test-secret-0123456789abcdefghij';
const logged: string[] = [];
const sockets: CdpTransport[] = [];
let endpoint: Endpoint;

beforeAll(async () => {
  endpoint = await startEndpoint({
    port: 0,
    token: TOKEN,
    product: 'bproxy-bridge/test',
    listTargets: async () => [{ id: 'T1', type: 'page', title: 'A', url: 'about:blank', description: '' }],
    onSocket: (transport) => {
      sockets.push(transport);
      transport.onmessage = (text) => transport.send(text);
    },
    logger: pino({ level: 'debug' }, { write: (line: string) => logged.push(line) }),
  });
});

afterAll(async () => {
  await endpoint.close();
});

function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: endpoint.port,
        path,
        headers: { Host: `127.0.0.1:${endpoint.port}`, ...headers },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function upgrade(path: string, headers: Record<string, string> = {}): Promise<number | 'open'> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${endpoint.port}${path}`, { headers });
    socket.on('open', () => {
      socket.close();
      resolve('open');
    });
    socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    socket.on('error', () => undefined);
  });
}

const bearer = { Authorization: `Bearer ${TOKEN}` };

/** A request written byte for byte (Node's client cannot repeat Host): the status line it got back. */
function raw(lines: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(endpoint.port, '127.0.0.1', () => socket.write(`${lines.join('\r\n')}\r\n\r\n`));
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const end = text.indexOf('\r\n');
      if (end !== -1) {
        resolve(text.slice(0, end));
        socket.destroy();
      }
    });
    socket.on('error', reject);
  });
}

/** Whether a TCP connection to the endpoint's port at `address` is accepted. */
function accepts(address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(endpoint.port, address);
    socket.on('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

describe("the bridge endpoint's gate", () => {
  it('listens on loopback only', async () => {
    expect(endpoint.wsUrl).toBe(`ws://127.0.0.1:${endpoint.port}/devtools/browser/${TOKEN}`);
    expect(await accepts('127.0.0.1')).toBe(true);
    // This machine's other addresses, and (on Linux, where all of 127/8 is loopback) another loopback
    // address: a listener on every interface would take a connection on each.
    const others = Object.values(networkInterfaces())
      .flatMap((addresses) => addresses ?? [])
      .filter((a) => a.family === 'IPv4' && !a.internal)
      .map((a) => a.address);
    if (process.platform === 'linux') others.push('127.0.0.2');
    const accepted: string[] = [];
    for (const address of others) if (await accepts(address)) accepted.push(address);
    expect(accepted).toEqual([]);
  });

  it('reveals the browser WebSocket URL only to a caller with the secret', async () => {
    expect(await get('/json/version')).toEqual({ status: 401, body: '' });
    const version = await get('/json/version', bearer);
    expect(version.status).toBe(200);
    expect(JSON.parse(version.body)).toEqual({
      Browser: 'bproxy-bridge/test',
      'Protocol-Version': '1.3',
      webSocketDebuggerUrl: endpoint.wsUrl,
    });
    expect(JSON.parse((await get('/json/list', bearer)).body)).toEqual([
      { id: 'T1', type: 'page', title: 'A', url: 'about:blank', description: '' },
    ]);
    const viaLocalhost = await get('/json/version', { ...bearer, Host: `localhost:${endpoint.port}` });
    expect(JSON.parse(viaLocalhost.body).webSocketDebuggerUrl).toBe(
      `ws://localhost:${endpoint.port}/devtools/browser/${TOKEN}`,
    );
  });

  it.each([
    ['a wrong secret', { Authorization: `Bearer ${TOKEN.slice(1)}x` }],
    ['the secret without Bearer', { Authorization: TOKEN }],
    ['a rebinding Host', { ...bearer, Host: 'evil.example:80' }],
    ['a Host with another port', { ...bearer, Host: '127.0.0.1:1' }],
    ['a web Origin', { ...bearer, Origin: 'https://evil.example' }],
    ['an opaque Origin', { ...bearer, Origin: 'null' }],
    ['fetch metadata of a page', { ...bearer, 'Sec-Fetch-Site': 'cross-site' }],
  ])('answers /json/version with a bare 401 for %s', async (_case, headers) => {
    expect(await get('/json/version', headers)).toEqual({ status: 401, body: '' });
  });

  // Node keeps the first Host and the first Authorization and drops the rest: each case would pass a
  // gate that reads only Node's parsed headers.
  it.each([
    ['Host, the endpoint first', ['Host: 127.0.0.1:PORT', 'Host: evil.example', 'AUTH']],
    ['Host, the same twice', ['Host: 127.0.0.1:PORT', 'Host: 127.0.0.1:PORT', 'AUTH']],
    ['Authorization, the secret first', ['Host: 127.0.0.1:PORT', 'AUTH', 'Authorization: Bearer wrong']],
  ])('answers 401 to a request or upgrade that repeats %s', async (_case, template) => {
    const headers = template.map((h) =>
      h === 'AUTH' ? `Authorization: Bearer ${TOKEN}` : h.replace('PORT', String(endpoint.port)),
    );
    // The control: the endpoint's Host and the secret, each once, pass.
    expect(
      await raw([
        'GET /json/version HTTP/1.1',
        `Host: 127.0.0.1:${endpoint.port}`,
        `Authorization: Bearer ${TOKEN}`,
      ]),
    ).toBe('HTTP/1.1 200 OK');
    expect(await raw(['GET /json/version HTTP/1.1', ...headers])).toBe('HTTP/1.1 401 Unauthorized');
    const before = sockets.length;
    expect(
      await raw([
        `GET /devtools/browser/${TOKEN} HTTP/1.1`,
        ...headers,
        'Connection: Upgrade',
        'Upgrade: websocket',
        'Sec-WebSocket-Version: 13',
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
      ]),
    ).toBe('HTTP/1.1 401 Unauthorized');
    expect(sockets.length).toBe(before);
  });

  it('opens the browser WebSocket on the secret path or with the secret header, and relays on it', async () => {
    expect(await upgrade(`/devtools/browser/${TOKEN}`)).toBe('open');
    expect(await upgrade('/devtools/browser', bearer)).toBe('open');
    const socket = new WebSocket(endpoint.wsUrl);
    const echoed = await new Promise<string>((resolve) => {
      socket.on('open', () => socket.send('{"id":1,"method":"Browser.getVersion"}'));
      socket.on('message', (data) => resolve(data.toString()));
    });
    socket.close();
    expect(echoed).toBe('{"id":1,"method":"Browser.getVersion"}');
  });

  it.each([
    ['no secret', '/devtools/browser', {}],
    ['a guessed path', '/devtools/browser/0123456789', {}],
    ['a secret that is one character short', `/devtools/browser/${TOKEN.slice(0, -1)}`, {}],
    ['a page Origin with the secret path', `/devtools/browser/${TOKEN}`, { Origin: 'http://localhost:3000' }],
    ['a rebinding Host with the secret path', `/devtools/browser/${TOKEN}`, { Host: 'attacker.example' }],
    ['a page path with the secret header', '/devtools/page/ABC', bearer],
  ])('refuses a WebSocket upgrade with %s', async (_case, path, headers) => {
    const before = sockets.length;
    expect(await upgrade(path, headers)).toBe(401);
    expect(sockets.length).toBe(before);
  });

  it('never writes the secret to its log', async () => {
    // Its own traffic, so the test stands alone: a refused guess at the secret path, the secret sent
    // the right way, and the secret in a refused path.
    await get(`/devtools/browser/${TOKEN.slice(0, -1)}`);
    await get('/json/version', { Authorization: `Bearer ${TOKEN}` });
    await get(`/json/version/${TOKEN}`);
    // The secret path itself, refused for the web page Origin it comes with.
    expect(await upgrade(`/devtools/browser/${TOKEN}`, { Origin: 'https://evil.example' })).toBe(401);
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.join('\n')).not.toContain(TOKEN);
  });
});

describe('the gate (unit)', () => {
  const expected = { port: 9333, token: TOKEN };
  const headers = (extra: IncomingHttpHeaders): IncomingHttpHeaders => ({ host: '127.0.0.1:9333', ...extra });

  it('never takes a secret from the path of a plain HTTP request', () => {
    expect(
      checkGate(
        { url: `/devtools/browser/${TOKEN}`, headers: headers({}), rawHeaders: [] },
        expected,
        'http',
      ),
    ).toEqual({
      ok: false,
    });
  });

  it('refuses a request without a path', () => {
    expect(
      checkGate(
        { url: 'http://x/json', headers: headers({ authorization: `Bearer ${TOKEN}` }), rawHeaders: [] },
        expected,
        'http',
      ),
    ).toEqual({ ok: false });
  });

  it('compares secrets of any length without throwing', () => {
    expect(sameSecret('', TOKEN)).toBe(false);
    expect(sameSecret(`${TOKEN}x`, TOKEN)).toBe(false);
    expect(sameSecret(TOKEN, TOKEN)).toBe(true);
  });
});
