/**
 * Fuzzing POST / and /pair/claim with generated valid and mutated inputs: never a 500, never a crash,
 * never a forwarded request for an input the schemas refuse, and Object.prototype untouched.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EXTENSION_ID } from '@bproxy/protocol';
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
