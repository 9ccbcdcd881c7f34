/**
 * Frames a CDP tool may send the bridge's relay, valid JSON and hostile: nested 100,000 deep, 100,000
 * wide, megabytes long, of the wrong type, in any field, with the id first (Chrome's order, swapped on
 * the text) or last (parsed and written again). The relay never throws: each frame with an id is
 * relayed to the browser or answered with a CDP error, and the next command is served.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileJson, hostileValues } from '../../../tests/fixtures/hostile-json';
import { relayFixture, type RelayFixture } from './helpers/relay-fixture';

/** A CDP command with the hostile JSON `json` at `field`; the id first or last. */
function command(id: number, field: string, json: string, idFirst: boolean): string {
  const fields = field === 'method' ? [] : ['"method":"Runtime.evaluate"'];
  fields.push(`${JSON.stringify(field)}:${json}`);
  const idField = `"id":${id}`;
  return `{${(idFirst ? [idField, ...fields] : [...fields, idField]).join(',')}}`;
}

let next = 1_000;

/** Sends `text` as the tool; then a valid command, which must reach the browser. */
function roundTrip(f: RelayFixture, text: string): void {
  const browser = f.browsers[0];
  const sentBefore = browser?.sent.length ?? 0;
  const answeredBefore = f.tool.sent.length;
  expect(() => f.tool.onmessage?.(text)).not.toThrow();
  const forwarded = (browser?.sent.length ?? 0) - sentBefore;
  const answered = f.tool.sent.length - answeredBefore;
  // A frame is relayed, answered with an error, or (without an id to answer) dropped: never lost silently
  // when it has an id.
  expect(forwarded + answered).toBeLessThanOrEqual(1);
  const id = ++next;
  f.tool.deliver({ id, method: 'Browser.getVersion', params: {} });
  expect(browser?.sent.at(-1)).toMatchObject({ method: 'Browser.getVersion' });
}

describe('relay: hostile frames from a tool', () => {
  it('relays or answers frames 100,000 deep, wide or huge in any field, id first or last, and serves the next', async () => {
    const f = await relayFixture();
    const fields = ['params', 'sessionId', 'method', 'extra'];
    for (const { json } of hostileValues(16 * 1024 * 1024))
      for (const field of fields)
        for (const idFirst of [true, false]) {
          const id = ++next;
          const before = f.tool.sent.length;
          const browser = f.browsers[0];
          const sentBefore = browser?.sent.length ?? 0;
          roundTrip(f, command(id, field, json, idFirst));
          // With an id, the tool hears back: the browser got it (its answer would come), or an error came.
          const relayed = (browser?.sent.length ?? 0) - sentBefore === 2;
          const answered = f.tool.sent.slice(before).some((m) => m.id === id);
          expect(relayed || answered).toBe(true);
        }
    await fc.assert(
      fc.property(
        fc.constantFrom('id', ...fields),
        fc.boolean(),
        hostileJson(1024 * 1024),
        (field, idFirst, json) => {
          roundTrip(f, command(++next, field, json, idFirst));
        },
      ),
      { numRuns: 40 },
    );
  }, 60_000);
});
