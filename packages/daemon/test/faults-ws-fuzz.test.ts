/**
 * Fuzzing GET /ws frames: generated driver messages, valid and mutated (extra fields, missing fields,
 * wrong types, not JSON at all, and hostile values in any field: nested up to 100,000 deep, 100,000
 * wide, megabytes long), sent on a live driver connection. The daemon never crashes or closes a
 * text-speaking driver, answers every invalid frame with BAD_REQUEST, and never runs a handler on one:
 * no tab moves or disappears, no element handle is dropped, no pending request is settled with data.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DriverMessageSchema, WS_MAX_PAYLOAD, type DaemonMessage } from '@bproxy/protocol';
import { hostileJson, withField } from '../../../tests/fixtures/hostile-json';
import { startDaemon, until, type TestDaemon } from './harness';
import { FaultyExtension, command, openSession } from './faults-helpers';

let daemon: TestDaemon;
let ext: FaultyExtension;
let session = '';
const fromDaemon: DaemonMessage[] = [];

beforeAll(async () => {
  daemon = await startDaemon();
  ext = new FaultyExtension(daemon);
  await ext.connect();
  ext.socket?.on('message', (raw) => fromDaemon.push(JSON.parse(raw.toString()) as DaemonMessage));
  session = await openSession(daemon);
  // Mint handles so that a wrongly handled navigation would visibly drop them.
  await command(daemon, 'elements', {}, { session });
});

afterAll(async () => {
  ext.kill();
  await daemon.close();
});

const tabId = fc.oneof(fc.constant(100), fc.integer({ min: -2, max: 2 ** 31 }), fc.constantFrom('100', null));
const validMessage = fc.oneof(
  fc.record({ type: fc.constant('ping'), ts: fc.double({ noNaN: true }) }),
  fc.record({
    type: fc.constant('navigation'),
    tabId,
    url: fc.webUrl(),
    cause: fc.constantFrom('committed', 'history_state'),
  }),
  fc.record({ type: fc.constant('tab_closed'), tabId }),
  fc.record({ type: fc.constant('tab_opened'), tabId, openerTabId: tabId, url: fc.webUrl() }),
  fc.record({
    type: fc.constant('response'),
    id: fc.string({ maxLength: 20 }),
    ok: fc.constant(true),
    data: fc.jsonValue({ maxDepth: 2 }),
  }),
  fc.record({
    type: fc.constant('hello'),
    protocolVersion: fc.integer({ min: 0, max: 3 }),
    client: fc.record({
      instanceId: fc.string({ minLength: 8, maxLength: 12 }),
      kind: fc.constantFrom('extension', 'cdp'),
    }),
  }),
);

type Frame = Record<string, unknown>;
const mutation = fc.oneof(
  fc.constant((m: Frame) => m),
  fc
    .record({
      k: fc.constantFrom('extra', '__proto__', 'constructor', 'id'),
      v: fc.jsonValue({ maxDepth: 2 }),
    })
    .map(
      ({ k, v }) =>
        (m: Frame) =>
          // A function replacement: a generated string holding $' or $& must not be read as a pattern.
          JSON.parse(
            JSON.stringify(m).replace(/^\{/, () => `{${JSON.stringify(k)}:${JSON.stringify(v)},`),
          ) as Frame,
    ),
  fc.constantFrom('type', 'tabId', 'url', 'cause', 'ts', 'ok', 'id').map((k) => (m: Frame) => {
    const copy = { ...m };
    delete copy[k];
    return copy;
  }),
  fc
    .record({
      k: fc.constantFrom('type', 'tabId', 'url', 'cause', 'ts', 'ok'),
      v: fc.jsonValue({ maxDepth: 1 }),
    })
    .map(({ k, v }) => (m: Frame) => ({ ...m, [k]: v })),
);
/** A message with one field — its own or a new one, `type` included — holding a hostile value. */
const hostileFrame = fc
  .tuple(
    validMessage,
    fc.constantFrom('type', 'tabId', 'url', 'ts', 'id', 'data', 'client', 'extra'),
    hostileJson(WS_MAX_PAYLOAD),
  )
  .map(([m, key, json]) => withField(m as Frame, key, json));
const frame = fc.oneof(
  {
    arbitrary: fc.tuple(validMessage, mutation).map(([m, mutate]) => JSON.stringify(mutate(m as Frame))),
    weight: 5,
  },
  { arbitrary: hostileFrame, weight: 3 },
  { arbitrary: hostileJson(WS_MAX_PAYLOAD), weight: 1 },
  { arbitrary: fc.string({ maxLength: 60 }), weight: 1 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)), weight: 1 },
);

function tabState(): string {
  const { sessions, handles } = daemon.server.deps;
  const tabs = sessions.tabsOfClient(ext.instanceId).map((t) => `${t.handle}:${t.rawTabId}:${t.url}`);
  return JSON.stringify({ tabs, handles: handles.size });
}

function parsedOrNull(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

describe('fuzzing /ws frames', () => {
  it('never crashes, never drops the driver and never acts on an invalid frame', async () => {
    let invalid = 0;
    await fc.assert(
      fc.asyncProperty(frame, async (text) => {
        const before = tabState();
        const errorsBefore = fromDaemon.filter((m) => m.type === 'error').length;
        const raw = parsedOrNull(text);
        const valid = raw !== null && DriverMessageSchema.safeParse(raw).success;
        ext.sendRaw(text);
        // A ping round trip proves the frame was processed (frames are handled in order).
        const ts = Math.random();
        ext.sendRaw(JSON.stringify({ type: 'ping', ts }));
        await until(() => fromDaemon.some((m) => m.type === 'pong' && m.ts === ts), 'the pong');
        expect(ext.socket?.readyState).toBe(1);
        if (!valid) {
          invalid++;
          const isResponse = (raw as { type?: unknown } | null)?.type === 'response';
          if (!isResponse) {
            const errors = fromDaemon.filter((m) => m.type === 'error');
            expect(errors.length).toBe(errorsBefore + 1);
            // The answer says what was wrong (a catalogue code for bad input, never a fault of ours) in a
            // message bounded whatever the frame held.
            const last = errors.at(-1);
            expect(last?.type === 'error' && last.error.code).toBe('BAD_REQUEST');
            expect(last?.type === 'error' && last.error.message.length).toBeLessThan(4_000);
          }
          expect(tabState()).toBe(before);
        }
      }),
      { numRuns: 300 },
    );
    expect(invalid).toBeGreaterThan(50);
    expect(daemon.server.deps.pending.awaitingAnswer).toBe(0);
    expect((await command(daemon, 'session.list')).ok).toBe(true);
    expect(daemon.logLines.some((l) => l.includes('ws_handler_failed'))).toBe(false);
  }, 120_000);
});
