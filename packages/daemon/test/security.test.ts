/**
 * The gate and body-abuse suite. Every case asserts the status and that nothing reached a browser
 * client (the fake extension records everything it receives).
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEFAULT_EXTENSION_ID, wsAuthProtocol } from '@bproxy/protocol';
import type { FakeExtension } from './harness';
import { nextId, startDaemonWithTab, type TestDaemon } from './harness';

let daemon: TestDaemon;
let ext: FakeExtension;
let session: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ daemon, ext, session, close } = await startDaemonWithTab());
});
afterAll(() => close());

let receivedBefore = 0;
beforeEach(() => {
  receivedBefore = ext.received.length;
});
const nothingForwarded = () => expect(ext.received.length).toBe(receivedBefore);

/** A raw HTTP request with full control over headers (fetch forbids Host, Origin, Sec-Fetch-*). */
function raw(opts: {
  method?: string;
  path?: string;
  headers?: Record<string, string | string[] | undefined>;
  body?: string;
}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(opts.headers ?? {})) if (v !== undefined) headers[k] = v;
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: daemon.port,
        method: opts.method ?? 'POST',
        path: opts.path ?? '/',
        headers,
        setHost: false,
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

const validBody = () =>
  JSON.stringify({ id: nextId(), action: 'text', session, params: {}, deadline: Date.now() + 5000 });
const baseHeaders = () => ({
  host: `127.0.0.1:${daemon.port}`,
  'content-type': 'application/json',
  authorization: `Bearer ${daemon.token}`,
});

describe('gate: Host', () => {
  it('accepts 127.0.0.1:PORT and localhost:PORT', async () => {
    expect((await raw({ headers: baseHeaders(), body: validBody() })).status).toBe(200);
    expect(
      (await raw({ headers: { ...baseHeaders(), host: `localhost:${daemon.port}` }, body: validBody() }))
        .status,
    ).toBe(200);
  });

  it.each([
    ['a rebinding name', 'evil.example:PORT'],
    ['a suffix trick', '127.0.0.1:PORT.evil.example'],
    ['no port', '127.0.0.1'],
    ['another port', '127.0.0.1:1'],
    ['uppercase', 'LOCALHOST:PORT'],
    ['0.0.0.0', '0.0.0.0:PORT'],
    ['IPv6 loopback', '[::1]:PORT'],
    ['a trailing dot', 'localhost.:PORT'],
  ])('refuses %s', async (_name, host) => {
    const res = await raw({
      headers: { ...baseHeaders(), host: host.replace('PORT', String(daemon.port)) },
      body: validBody(),
    });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body).error.code).toBe('UNAUTHORIZED');
    nothingForwarded();
  });

  it('refuses a missing Host', async () => {
    const { host: _host, ...rest } = baseHeaders();
    const res = await raw({ headers: rest, body: validBody() });
    expect(res.status).toBe(401);
    nothingForwarded();
  });
});

describe('gate: Origin and fetch metadata', () => {
  it('accepts the extension origin and refuses every other', async () => {
    const ok = await raw({
      headers: { ...baseHeaders(), origin: `chrome-extension://${DEFAULT_EXTENSION_ID}` },
      body: validBody(),
    });
    expect(ok.status).toBe(200);
    receivedBefore = ext.received.length;
    for (const origin of [
      'chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      `chrome-extension://${DEFAULT_EXTENSION_ID}x`,
      `chrome-extension://${DEFAULT_EXTENSION_ID}/`,
      `xchrome-extension://${DEFAULT_EXTENSION_ID}`,
      `CHROME-EXTENSION://${DEFAULT_EXTENSION_ID}`,
      'http://127.0.0.1:8080',
      `http://localhost:${daemon.port}`,
      'null',
      '',
    ]) {
      const res = await raw({ headers: { ...baseHeaders(), origin }, body: validBody() });
      expect(res.status, origin).toBe(401);
    }
    nothingForwarded();
  });

  it('accepts Sec-Fetch-Site none and same-origin, refuses same-site and cross-site', async () => {
    for (const site of ['none', 'same-origin']) {
      expect(
        (await raw({ headers: { ...baseHeaders(), 'sec-fetch-site': site }, body: validBody() })).status,
      ).toBe(200);
    }
    const before = ext.received.length;
    for (const site of ['same-site', 'cross-site', 'SAME-ORIGIN', '']) {
      expect(
        (await raw({ headers: { ...baseHeaders(), 'sec-fetch-site': site }, body: validBody() })).status,
        site,
      ).toBe(401);
    }
    expect(ext.received.length).toBe(before);
  });

  it('refuses a simple-content-type CSRF post from a page even with a leaked-looking body', async () => {
    const res = await raw({
      headers: {
        host: `127.0.0.1:${daemon.port}`,
        'content-type': 'text/plain',
        origin: 'http://127.0.0.1:5173',
        'sec-fetch-site': 'same-site',
      },
      body: validBody(),
    });
    expect(res.status).toBe(401);
    nothingForwarded();
  });
});

describe('gate: bearer', () => {
  it.each([
    ['missing', undefined],
    ['empty', 'Bearer '],
    ['wrong', 'Bearer 0000'],
    ['lowercase scheme', 'bearer TOKEN'],
    ['basic scheme', 'Basic TOKEN'],
    ['token with a suffix', 'Bearer TOKENx'],
    ['token prefix', 'Bearer TOKENPREFIX'],
    ['extra space', 'Bearer  TOKEN'],
  ])('refuses a %s bearer', async (_name, value) => {
    const auth = value?.replace('TOKENPREFIX', daemon.token.slice(0, 32)).replace('TOKEN', daemon.token);
    const res = await raw({ headers: { ...baseHeaders(), authorization: auth }, body: validBody() });
    expect(res.status).toBe(401);
    nothingForwarded();
  });

  it('refuses a repeated Authorization header', async () => {
    const res = await raw({
      headers: { ...baseHeaders(), authorization: [`Bearer ${daemon.token}`, `Bearer ${daemon.token}`] },
      body: validBody(),
    });
    expect(res.status).toBe(401);
  });

  it('answers 401 before looking at a malformed body', async () => {
    const res = await raw({ headers: { ...baseHeaders(), authorization: 'Bearer nope' }, body: '{not json' });
    expect(res.status).toBe(401);
    const schemaInvalid = await raw({
      headers: { ...baseHeaders(), authorization: 'Bearer nope' },
      body: '{"x":1}',
    });
    expect(schemaInvalid.status).toBe(401);
  });

  it('says nothing beyond the code in a rejection', async () => {
    const res = await raw({ headers: { ...baseHeaders(), authorization: 'Bearer nope' }, body: validBody() });
    const body = JSON.parse(res.body);
    expect(body.error.code).toBe('UNAUTHORIZED');
    expect(body.error.message).toBe('unauthorized');
    expect(res.body).not.toContain(daemon.token);
  });

  it('guards unknown routes too', async () => {
    expect(
      (await raw({ method: 'GET', path: '/secret', headers: { host: `127.0.0.1:${daemon.port}` } })).status,
    ).toBe(401);
    expect((await raw({ method: 'GET', path: '/secret', headers: baseHeaders() })).status).toBe(404);
  });
});

describe('body abuse', () => {
  const post = (body: string, contentType = 'application/json') =>
    raw({ headers: { ...baseHeaders(), 'content-type': contentType }, body });

  it('refuses prototype pollution', async () => {
    const res = await post(
      `{"id":"p1","action":"text","session":"${session}","params":{"__proto__":{"polluted":true}},"deadline":${Date.now() + 5000}}`,
    );
    expect(res.status).toBe(400);
    const ctor = await post(
      `{"id":"p2","action":"text","session":"${session}","params":{"constructor":{"prototype":{"polluted":true}}},"deadline":${Date.now() + 5000}}`,
    );
    expect(ctor.status).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    nothingForwarded();
  });

  it('refuses unknown fields at every level', async () => {
    const top = await post(
      JSON.stringify({
        id: 'u1',
        action: 'text',
        session,
        params: {},
        deadline: Date.now() + 5000,
        admin: true,
      }),
    );
    expect(top.status).toBe(400);
    expect(JSON.parse(top.body).error.message).toContain('admin');
    const inner = await post(
      JSON.stringify({ id: 'u2', action: 'text', session, params: { evil: 1 }, deadline: Date.now() + 5000 }),
    );
    expect(inner.status).toBe(400);
    expect(JSON.parse(inner.body).error.message).toContain('params');
    nothingForwarded();
  });

  it('does not coerce types', async () => {
    const res = await post(
      JSON.stringify({
        id: 'c1',
        action: 'text',
        session,
        params: { maxChars: '500' },
        deadline: Date.now() + 5000,
      }),
    );
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error.message).toMatch(/params\.maxChars: expected number/);
    const deadline = await post(
      JSON.stringify({ id: 'c2', action: 'text', session, params: {}, deadline: String(Date.now() + 5000) }),
    );
    expect(deadline.status).toBe(400);
    nothingForwarded();
  });

  it('refuses an oversize body with 413 and keeps serving', async () => {
    const res = await post(
      JSON.stringify({
        id: 'big',
        action: 'text',
        session,
        params: { pad: 'x'.repeat(2 * 1024 * 1024) },
        deadline: 1,
      }),
    );
    expect(res.status).toBe(413);
    expect((await post(validBody())).status).toBe(200);
  });

  it('survives deep nesting', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const res = await post(
      `{"id":"d1","action":"text","session":"${session}","params":{"x":${deep}},"deadline":${Date.now() + 5000}}`,
    );
    expect(res.status).toBe(400);
    nothingForwarded();
    expect((await post(validBody())).status).toBe(200);
  });

  it('refuses non-JSON content types with 415', async () => {
    expect((await post(validBody(), 'text/plain')).status).toBe(415);
    expect((await post(validBody(), 'application/x-www-form-urlencoded')).status).toBe(415);
    nothingForwarded();
  });

  it('refuses malformed JSON with 400 and an envelope', async () => {
    const res = await post('{"id": "x", ');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error.code).toBe('BAD_REQUEST');
  });

  it('names an unknown action', async () => {
    const res = await post(
      JSON.stringify({ id: 'a1', action: 'eval', params: {}, deadline: Date.now() + 5000 }),
    );
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error.code).toBe('UNKNOWN_ACTION');
  });
});

describe('WS upgrade', () => {
  function tryUpgrade(opts: {
    protocols?: string[];
    origin?: string;
    host?: string;
  }): Promise<{ opened: boolean; protocol?: string; status?: number }> {
    return new Promise((resolve) => {
      const headers: Record<string, string> = {};
      if (opts.origin !== undefined) headers.origin = opts.origin;
      if (opts.host !== undefined) headers.host = opts.host;
      const ws = new WebSocket(`ws://127.0.0.1:${daemon.port}/ws`, opts.protocols ?? [], { headers });
      ws.on('open', () => {
        const protocol = ws.protocol;
        ws.close();
        resolve({ opened: true, protocol });
      });
      ws.on('unexpected-response', (_req, res) => {
        resolve({ opened: false, status: res.statusCode });
        res.resume();
      });
      ws.on('error', () => resolve({ opened: false }));
    });
  }
  const origin = `chrome-extension://${DEFAULT_EXTENSION_ID}`;

  it('echoes only bproxy.v1 for the right token', async () => {
    const res = await tryUpgrade({ protocols: ['bproxy.v1', wsAuthProtocol(daemon.extensionToken)], origin });
    expect(res).toEqual({ opened: true, protocol: 'bproxy.v1' });
  });

  it.each([
    ['a wrong token', () => ['bproxy.v1', 'auth.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'], origin],
    ['no token', () => ['bproxy.v1'], origin],
    ['the daemon token', () => ['bproxy.v1', wsAuthProtocol(daemon.token)], origin],
    ['no Origin', () => ['bproxy.v1', wsAuthProtocol(daemon.extensionToken)], undefined],
    [
      'a web page Origin',
      () => ['bproxy.v1', wsAuthProtocol(daemon.extensionToken)],
      'http://127.0.0.1:5173',
    ],
    [
      'another extension',
      () => ['bproxy.v1', wsAuthProtocol(daemon.extensionToken)],
      'chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    ],
  ])('refuses %s with 401', async (_name, protocols, o) => {
    const res = await tryUpgrade({ protocols: protocols(), ...(o !== undefined ? { origin: o } : {}) });
    expect(res.opened).toBe(false);
    expect(res.status).toBe(401);
  });

  it('refuses a rebinding Host on the upgrade', async () => {
    const res = await tryUpgrade({
      protocols: ['bproxy.v1', wsAuthProtocol(daemon.extensionToken)],
      origin,
      host: `evil.example:${daemon.port}`,
    });
    expect(res.opened).toBe(false);
  });
});

describe('secrets stay out of logs', () => {
  it('never logs the daemon token, the extension token or a bearer header', async () => {
    await raw({ headers: { ...baseHeaders(), authorization: 'Bearer nope' }, body: validBody() });
    await raw({ headers: baseHeaders(), body: validBody() });
    const all = daemon.logLines.join('\n');
    expect(all).not.toContain(daemon.token);
    expect(all).not.toContain(daemon.extensionToken);
    expect(all).not.toMatch(/Bearer/);
  });
});
