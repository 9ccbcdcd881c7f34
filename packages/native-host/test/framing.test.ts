/**
 * Chrome's framing, read from stdin chunks cut anywhere: every message comes back whole and in order,
 * a frame over the cap is refused at its header and skipped without being kept, and bytes that are not
 * a message stop the decoder for good. Generated inputs (fast-check) cover lengths and cut points.
 */
import { endianness } from 'node:os';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameDecoder, encodeFrame, frameHeader, type FrameEvent } from '../src/framing';

/** Cuts `bytes` at the given (sorted, deduplicated) offsets. */
function cut(bytes: Buffer, offsets: number[]): Buffer[] {
  const points = [...new Set(offsets.map((o) => o % (bytes.length + 1)))].sort((a, b) => a - b);
  const parts: Buffer[] = [];
  let from = 0;
  for (const point of points) {
    parts.push(bytes.subarray(from, point));
    from = point;
  }
  parts.push(bytes.subarray(from));
  return parts;
}

function decodeAll(decoder: FrameDecoder, parts: Buffer[]): FrameEvent[] {
  return parts.flatMap((part) => decoder.push(part));
}

const jsonValue = fc.jsonValue().map((value) => JSON.parse(JSON.stringify(value)) as unknown);

describe('frame encoding', () => {
  it('writes a 32-bit length in the native byte order, then the UTF-8 bytes', () => {
    const frame = encodeFrame('{"a":"é"}');
    const length = endianness() === 'LE' ? frame.readUInt32LE(0) : frame.readUInt32BE(0);
    expect(length).toBe(Buffer.byteLength('{"a":"é"}'));
    expect(frame.subarray(4).toString('utf8')).toBe('{"a":"é"}');
  });
});

describe('frame decoding', () => {
  it('returns every message whole and in order, wherever stdin cuts the bytes', () => {
    fc.assert(
      fc.property(
        fc.array(jsonValue, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (values, offsets) => {
          const bytes = Buffer.concat(values.map((value) => encodeFrame(JSON.stringify(value))));
          const events = decodeAll(new FrameDecoder(1024 * 1024), cut(bytes, offsets));
          expect(events).toEqual(values.map((value) => ({ kind: 'message', value })));
        },
      ),
    );
  });

  it('refuses a frame over the cap at its header, skips its body as it streams, then reads on', () => {
    const decoder = new FrameDecoder(1000);
    expect(decoder.push(frameHeader(5000))).toEqual([{ kind: 'oversize', length: 5000 }]);
    // The body arrives in pieces; none of it is an event, and none of it is kept.
    for (let i = 0; i < 5; i++) expect(decoder.push(Buffer.alloc(1000, 0xff))).toEqual([]);
    expect(decoder.push(encodeFrame('{"after":true}'))).toEqual([
      { kind: 'message', value: { after: true } },
    ]);
    expect(decoder.end()).toEqual({ torn: false });
  });

  it('accepts a frame of exactly the cap and refuses one byte more', () => {
    const body = `"${'x'.repeat(98)}"`;
    expect(new FrameDecoder(100).push(encodeFrame(body))).toEqual([
      { kind: 'message', value: 'x'.repeat(98) },
    ]);
    expect(new FrameDecoder(99).push(encodeFrame(body))[0]).toEqual({ kind: 'oversize', length: 100 });
  });

  it('refuses a 4 GiB announcement with the same skip, never allocating it', () => {
    const decoder = new FrameDecoder(64 * 1024 * 1024);
    const header = Buffer.from([0xff, 0xff, 0xff, 0xff]);
    expect(decoder.push(header)).toEqual([{ kind: 'oversize', length: 0xffffffff }]);
    expect(decoder.end()).toEqual({ torn: true, detail: `${0xffffffff} bytes of a refused frame missing` });
  });

  it.each([
    ['a header', Buffer.from([5, 0]), '2 of 4 header bytes'],
    ['a body', encodeFrame('{"a":1}').subarray(0, 7), '3 of 7 body bytes'],
  ])('reports a frame torn in %s when the input ends', (_what, bytes, detail) => {
    const decoder = new FrameDecoder(1024);
    expect(decoder.push(bytes)).toEqual([]);
    expect(decoder.end()).toEqual({ torn: true, detail });
  });

  it.each([
    ['bytes that are not UTF-8', Buffer.from([0x22, 0xc3, 0x28, 0x22]), 'not UTF-8'],
    ['UTF-8 that is not JSON', Buffer.from('{"open":', 'utf8'), 'not JSON'],
    ['an overlong encoding of a quote', Buffer.from([0x22, 0xc0, 0xa2, 0x22]), 'not UTF-8'],
  ])('stops for good at %s', (_what, body, reason) => {
    const decoder = new FrameDecoder(1024);
    const events = decoder.push(Buffer.concat([frameHeader(body.length), body, encodeFrame('{"later":1}')]));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'garbage' });
    expect((events[0] as { reason: string }).reason).toContain(reason);
    expect(decoder.push(encodeFrame('{"later":2}'))).toEqual([]);
  });

  it('never throws on arbitrary bytes, and every event it gives is one of its three kinds', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (bytes, offsets) => {
          const decoder = new FrameDecoder(200);
          const events = decodeAll(decoder, cut(Buffer.from(bytes), offsets));
          for (const event of events) expect(['message', 'oversize', 'garbage']).toContain(event.kind);
          expect(events.filter((e) => e.kind === 'garbage').length).toBeLessThanOrEqual(1);
          decoder.end();
        },
      ),
    );
  });
});
