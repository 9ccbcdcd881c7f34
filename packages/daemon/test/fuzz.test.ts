/**
 * Fuzzing POST / and /pair/claim with generated valid and mutated inputs: never a 500, never a crash,
 * never a forwarded request for an input the schemas refuse, and Object.prototype untouched.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_EXTENSION_ID,
  ERROR_CATALOGUE,
  PAIRING_ERROR_CODES,
  type BproxyResponse,
} from '@bproxy/protocol';
import { DEEP, deepArray, hostileJson, hostileValues, withField } from '../../../tests/fixtures/hostile-json';
import { COMMAND_BODY_LIMIT } from '../src/http/command';
import type { FakeExtension } from './harness';
import { startDaemonWithTab, type TestDaemon } from './harness';

let daemon: TestDaemon;
let ext: FakeExtension;
let session: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ daemon, ext, session, close } = await startDaemonWithTab());
});
afterAll(() => close());

const inject = (payload: string, url = '/', extra: Record<string, string> = {}) =>
  daemon.server.app.inject({
    method: 'POST',
    url,
    headers: {
      host: `127.0.0.1:${daemon.port}`,
      authorization: `Bearer ${daemon.token}`,
      'content-type': 'application/json',
      ...extra,
    },
    payload,
  });

const actions = [
  'text',
  'click',
  'fill',
  'navigate',
  'session.bind',
  'tab.open',
  'wait',
  'scroll',
  'select',
  'debug.last',
];
const valueArb = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom('el1', 'ln1', 't1', '__proto__', 'constructor', '', ' ', '\u0000', 'x'.repeat(300)),
  fc.constantFrom(-1, 0, 1.5, 1e308, Number.MAX_SAFE_INTEGER + 2),
);
const mutatedRequest = fc.record(
  {
    id: fc.oneof(fc.string({ maxLength: 140 }), fc.integer(), fc.constant('ok-id')),
    action: fc.oneof(fc.constantFrom(...actions), fc.string({ maxLength: 20 })),
    session: fc.oneof(fc.constant(undefined), fc.string({ maxLength: 8 }), fc.constant('SESSION')),
    params: fc.oneof(
      fc.dictionary(
        fc.constantFrom('target', 'url', 'value', 'tab', 'pacing', 'text', '__proto__', 'extra'),
        valueArb,
        { maxKeys: 4 },
      ),
      valueArb,
    ),
    deadline: fc.oneof(fc.constant('DEADLINE'), valueArb),
    extra: valueArb,
  },
  { requiredKeys: [] },
);

describe('fuzzing the command route', () => {
  it('never answers 500 and never forwards what it refused', async () => {
    await fc.assert(
      fc.asyncProperty(mutatedRequest, async (generated) => {
        const before = ext.received.length;
        const body = JSON.stringify(generated)
          .replace('"SESSION"', JSON.stringify(session))
          .replace('"DEADLINE"', String(Date.now() + 2_000));
        const res = await inject(body);
        expect(res.statusCode).toBeLessThan(500);
        const json = res.json() as { ok: boolean; error?: { code: string } };
        expect(typeof json.ok).toBe('boolean');
        if (res.statusCode === 400) expect(ext.received.length).toBe(before);
        expect(Object.prototype).not.toHaveProperty('polluted');
      }),
      { numRuns: 300 },
    );
    const alive = await daemon.call('session.list');
    expect(alive.ok).toBe(true);
  }, 60_000);

  it('survives raw byte garbage', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), async (raw) => {
        const res = await inject(raw);
        expect(res.statusCode).toBeLessThan(500);
      }),
      { numRuns: 200 },
    );
  });
});

describe('fuzzing /pair/claim', () => {
  it('answers only pairing codes and never pairs by accident', async () => {
    const before = daemon.extensionToken;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
          fc.string({ maxLength: 80 }),
        ),
        async (payload) => {
          const res = await inject(payload, '/pair/claim', {
            origin: `chrome-extension://${DEFAULT_EXTENSION_ID}`,
          });
          expect(res.statusCode).toBeLessThan(500);
          const json = res.json() as { ok: boolean; error?: { code: string } };
          expect(json.ok).toBe(false);
          expect(json.error?.code).toMatch(/^PAIRING_/);
        },
      ),
      { numRuns: 150 },
    );
    expect(daemon.extensionToken).toBe(before);
  });
});

/** The one catalogue, and the pairing route's own codes (the extension reads them by name). */
const CATALOGUE_CODES = new Set<string>([...Object.keys(ERROR_CATALOGUE), ...PAIRING_ERROR_CODES]);

/** POST `payload` over the real listener to `path`, as the CLI (/) or the extension (pairing) does. */
async function postRaw(path: string, payload: string): Promise<{ status: number; body: BproxyResponse }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (path === '/') headers.authorization = `Bearer ${daemon.token}`;
  // A client's proof comes with no Origin at all; the extension's pairing routes with ours.
  else if (path !== '/client/proof') headers.origin = `chrome-extension://${DEFAULT_EXTENSION_ID}`;
  const res = await fetch(`http://127.0.0.1:${daemon.port}${path}`, {
    method: 'POST',
    headers,
    body: payload,
  });
  return { status: res.status, body: (await res.json()) as BproxyResponse };
}

/** A refusal: a 4xx status and a catalogue code, in a message that stays short whatever came in. */
function expectCatalogueRefusal(answer: { status: number; body: BproxyResponse }): void {
  expect(answer.status).toBeGreaterThanOrEqual(400);
  expect(answer.status).toBeLessThan(500);
  expect(answer.body.ok).toBe(false);
  expectEnvelope(answer);
}

/** An answer the daemon meant: an envelope, and when it refuses, a catalogue code other than its own fault. */
function expectEnvelope(answer: { status: number; body: BproxyResponse }): void {
  expect(answer.status).not.toBe(500);
  expect(typeof answer.body.ok).toBe('boolean');
  if (!answer.body.ok) {
    expect(answer.body.error.code).not.toBe('INTERNAL_ERROR');
    expect(CATALOGUE_CODES.has(answer.body.error.code)).toBe(true);
    expect((answer.body.error.message ?? '').length).toBeLessThan(4_000);
  }
}

describe('hostile values at every HTTP door', () => {
  const valid = () => ({
    id: `h${Math.random().toString(36).slice(2)}`,
    action: 'text',
    session,
    params: { tab: 't1' },
    deadline: Date.now() + 2_000,
  });
  const fields = ['id', 'action', 'session', 'params', 'deadline', 'extra'];

  it('POST / answers a catalogue error to values 100,000 deep, wide or huge in any field, and serves the next', async () => {
    const cases = hostileValues(COMMAND_BODY_LIMIT).flatMap(({ name, json }) => [
      { name: `${name} as the body`, payload: json },
      ...fields.map((field) => ({ name: `${name} as ${field}`, payload: withField(valid(), field, json) })),
      { name: `${name} as params.tab`, payload: withField(valid(), 'params', `{"tab":${json}}`) },
    ]);
    for (const { name, payload } of cases) {
      const before = ext.received.length;
      const answer = await postRaw('/', payload);
      expect.soft(answer.status, name).toBe(400);
      expectCatalogueRefusal(answer);
      expect(ext.received.length).toBe(before);
      expect((await daemon.call('session.list')).ok, `after ${name}`).toBe(true);
    }
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...fields, 'body'),
        hostileJson(COMMAND_BODY_LIMIT),
        async (field, json) => {
          // A small value may be a valid one for its field (params {}, an id "x"): the property is an
          // answer the daemon meant; the cases above are the refusals.
          const answer = await postRaw('/', field === 'body' ? json : withField(valid(), field, json));
          expectEnvelope(answer);
        },
      ),
      { numRuns: 60 },
    );
    expect((await daemon.call('session.list')).ok).toBe(true);
    expect(daemon.logLines.some((l) => l.includes('"internal_error"'))).toBe(false);
    // The debug log took every refused body, redacted and cut to a readable line.
    expect(daemon.logLines.filter((l) => l.includes('"request_payload"')).length).toBeGreaterThan(
      cases.length,
    );
    expect(daemon.logLines.reduce((longest, l) => Math.max(longest, l.length), 0)).toBeLessThan(64 * 1024);
  }, 120_000);

  it.each(['/pair/claim', '/pair/proof', '/client/proof'])(
    '%s answers a catalogue error to deep, wide and huge values within its size limit, and serves the next',
    async (path) => {
      const limit = path === '/pair/claim' ? 1024 : 512;
      const base = path === '/pair/claim' ? { code: 'ABCD-EFGH' } : { clientNonce: 'x' };
      const key = Object.keys(base)[0] ?? 'code';
      await fc.assert(
        fc.asyncProperty(fc.boolean(), hostileJson(limit), async (asField, json) => {
          const payload = asField ? withField(base, key, json) : json;
          fc.pre(Buffer.byteLength(payload) <= limit);
          const answer = await postRaw(path, payload);
          expectCatalogueRefusal(answer);
        }),
        { numRuns: 40 },
      );
      for (const { json } of hostileValues(limit)) expectCatalogueRefusal(await postRaw(path, json));
      expect((await daemon.call('session.list')).ok).toBe(true);
    },
    60_000,
  );
});

describe('hostile answers from the driver', () => {
  it.each([
    ['data', (deep: string) => `"ok":true,"data":{"text":${deep}}`],
    [
      'error details',
      (deep: string) =>
        `"ok":false,"error":{"code":"ELEMENT_NOT_FOUND","category":"target","retry":false,"message":"x","details":{"deep":${deep}}}`,
    ],
  ])(
    'settles a request whose answer nests %s 100,000 deep with DRIVER_ERROR, and serves the next',
    async (_what, answer) => {
      const before = ext.behaviour;
      // Written by hand: the fake extension's JSON.stringify could not write such an answer.
      ext.behaviour = (req) => {
        ext.socket?.send(`{"type":"response","id":${JSON.stringify(req.id)},${answer(deepArray(DEEP))}}`);
        return 'drop';
      };
      try {
        const res = await postRaw(
          '/',
          JSON.stringify({
            id: `deep${Math.random()}`,
            action: 'text',
            session,
            params: {},
            deadline: Date.now() + 5_000,
          }),
        );
        expect(res.body.ok).toBe(false);
        if (!res.body.ok) expect(res.body.error.code).toBe('DRIVER_ERROR');
        expect(res.status).toBe(502);
      } finally {
        ext.behaviour = before;
      }
      expect((await daemon.call('text', {}, session)).ok).toBe(true);
      expect(
        daemon.logLines.some((l) => l.includes('"unhandled_rejection"') || l.includes('"internal_error"')),
      ).toBe(false);
    },
  );
});
