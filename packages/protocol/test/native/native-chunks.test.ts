/**
 * The native port's chunking, shared by the host (split) and the extension (reassembly): every frame
 * fits Chrome's limit, a message comes back byte for byte, and a broken sequence drops its message
 * only — with memory and time bounded.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ChunkReassembler,
  NATIVE_MAX_TO_BROWSER,
  NativeChunkSchema,
  splitForBrowser,
  type NativeChunk,
} from '../../src/index';

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

function chunksOf(frames: string[]): NativeChunk[] {
  return frames.map((frame) => NativeChunkSchema.parse(JSON.parse(frame)));
}

/** A JSON message of about `bytes` UTF-8 bytes, mixing ASCII, 2-, 3- and 4-byte characters. */
function bigMessage(bytes: number): string {
  const unit = 'abc é € 😀 "quoted" \\ \n';
  const text = unit.repeat(Math.ceil(bytes / utf8Bytes(unit)));
  return JSON.stringify({ type: 'chat.transcript', id: 'h1', text });
}

function reassemble(frames: string[], reassembler = new ChunkReassembler()): string {
  let result: string | null = null;
  for (const chunk of chunksOf(frames)) {
    const outcome = reassembler.accept(chunk);
    if (outcome.kind === 'dropped') throw new Error(outcome.reason);
    if (outcome.kind === 'complete') result = outcome.text;
  }
  if (result === null) throw new Error('incomplete');
  return result;
}

describe('splitting a host → browser message', () => {
  it('sends a message that fits as it is', () => {
    const json = JSON.stringify({ type: 'welcome', protocolVersion: 1, hostVersion: '0.1.0' });
    expect(splitForBrowser(json, 'c1')).toEqual([json]);
  });

  it('splits a 3 MiB reply into frames under 1 MiB that reassemble exactly', () => {
    const json = bigMessage(3 * 1024 * 1024);
    const frames = splitForBrowser(json, 'c7');
    expect(frames.length).toBe(5);
    for (const frame of frames) expect(utf8Bytes(frame)).toBeLessThanOrEqual(NATIVE_MAX_TO_BROWSER);
    expect(chunksOf(frames).map((c) => [c.chunkId, c.index, c.count])).toEqual(
      frames.map((_, i) => ['c7', i, 5]),
    );
    expect(reassemble(frames)).toBe(json);
  });

  it('reassembles any text exactly, whatever the frame size cuts through', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 400 }),
        fc.integer({ min: 300, max: 700 }),
        (text, max) => {
          const json = JSON.stringify({ text });
          const frames = splitForBrowser(json, 'x', max);
          for (const frame of frames) expect(utf8Bytes(frame)).toBeLessThanOrEqual(max);
          expect(frames.length === 1 ? frames[0] : reassemble(frames)).toBe(json);
        },
      ),
    );
  });

  it('refuses a message that would need more than 4096 chunks', () => {
    expect(() => splitForBrowser('x'.repeat(4097 * 3 + 1), 'c', 260)).toThrow(RangeError);
  });
});

describe('reassembling chunks', () => {
  const frames = splitForBrowser(bigMessage(2500), 'm1', 1000);
  const chunks = chunksOf(frames);

  it('needs at least three chunks for these cases', () => {
    expect(chunks.length).toBeGreaterThanOrEqual(3);
  });

  it('drops a message with a gap, and the next message still arrives', () => {
    const r = new ChunkReassembler();
    expect(r.accept(chunks[0] as NativeChunk).kind).toBe('partial');
    expect(r.accept(chunks[2] as NativeChunk)).toMatchObject({ kind: 'dropped', chunkId: 'm1' });
    expect(r.pending).toBe(0);
    expect(reassemble(frames, r)).toBe(bigMessage(2500));
  });

  it('drops a chunk whose message never started, a changed count and bad base64', () => {
    const [first, second] = chunks as [NativeChunk, NativeChunk];
    expect(new ChunkReassembler().accept(second).kind).toBe('dropped');
    const r = new ChunkReassembler();
    r.accept(first);
    expect(r.accept({ ...second, count: second.count + 1 }).kind).toBe('dropped');
    r.accept(first);
    expect(r.accept({ ...second, data: '***' }).kind).toBe('dropped');
  });

  it('drops a message whose bytes are not UTF-8', () => {
    const bad = [0xff, 0xfe, 0xfd];
    const r = new ChunkReassembler();
    r.accept({ type: 'chunk', chunkId: 'u', index: 0, count: 2, data: btoa('ok') });
    expect(
      r.accept({ type: 'chunk', chunkId: 'u', index: 1, count: 2, data: btoa(String.fromCharCode(...bad)) }),
    ).toEqual({
      kind: 'dropped',
      chunkId: 'u',
      reason: 'the reassembled message is not UTF-8',
    });
  });

  it('bounds a message by size, the messages in flight by count, and each by time', () => {
    const small = new ChunkReassembler({ maxMessageBytes: 1500 });
    expect(() => reassemble(frames, small)).toThrow(/grew over 1500 bytes/);

    const few = new ChunkReassembler({ maxPending: 2 });
    for (const id of ['a', 'b', 'c']) few.accept({ ...(chunks[0] as NativeChunk), chunkId: id });
    expect(few.pending).toBe(2);
    expect(few.accept({ ...(chunks[1] as NativeChunk), chunkId: 'a' }).kind).toBe('dropped');

    let now = 0;
    const slow = new ChunkReassembler({ timeoutMs: 1000, now: () => now });
    slow.accept(chunks[0] as NativeChunk);
    now = 1001;
    expect(slow.expire()).toEqual(['m1']);
    slow.accept(chunks[0] as NativeChunk);
    now = 2500;
    expect(slow.accept(chunks[1] as NativeChunk).kind).toBe('dropped');
  });
});
