/**
 * Chrome's native messaging framing: each message is a 32-bit length in the machine's native byte
 * order, then that many bytes of UTF-8 JSON. The decoder turns stdin chunks into events without ever
 * holding a refused message: a frame above the cap is reported as soon as its header is read and its
 * body is skipped as it streams by. What it cannot read (bytes that are not UTF-8 or not JSON) stops
 * it for good — after garbage no later length can be trusted. Validation against the port's schemas
 * happens above this file.
 */
import { endianness } from 'node:os';

const HEADER_BYTES = 4;
const LITTLE_ENDIAN = endianness() === 'LE';

export type FrameEvent =
  | { readonly kind: 'message'; readonly value: unknown }
  /** A frame longer than the cap: its body is being skipped, and nothing of it is kept. */
  | { readonly kind: 'oversize'; readonly length: number }
  /** Bytes that are not a message: the stream cannot be read further. */
  | { readonly kind: 'garbage'; readonly reason: string };

/** The frame header for a body of `length` bytes. */
export function frameHeader(length: number): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  if (LITTLE_ENDIAN) header.writeUInt32LE(length);
  else header.writeUInt32BE(length);
  return header;
}

/** One frame carrying `json` (its UTF-8 bytes); the caller keeps it under Chrome's limit. */
export function encodeFrame(json: string): Buffer {
  const body = Buffer.from(json, 'utf8');
  return Buffer.concat([frameHeader(body.length), body]);
}

export class FrameDecoder {
  private header = Buffer.alloc(0);
  /** The body being read: its announced length and the parts so far. */
  private body: { length: number; parts: Buffer[]; received: number } | null = null;
  private skipping = 0;
  private broken = false;
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true });

  constructor(private readonly maxBytes: number) {}

  /** The events carried by `chunk`, in order. After a garbage event the decoder ignores everything. */
  push(chunk: Buffer): FrameEvent[] {
    const events: FrameEvent[] = [];
    let offset = 0;
    while (offset < chunk.length && !this.broken) {
      if (this.skipping > 0) {
        const skipped = Math.min(this.skipping, chunk.length - offset);
        this.skipping -= skipped;
        offset += skipped;
      } else if (this.body !== null) {
        offset = this.readBody(chunk, offset, events);
      } else {
        offset = this.readHeader(chunk, offset, events);
      }
    }
    return events;
  }

  /** Whether the input stopped in the middle of a frame (a torn frame), and where. */
  end(): { readonly torn: false } | { readonly torn: true; readonly detail: string } {
    if (this.broken) return { torn: false };
    if (this.header.length > 0)
      return { torn: true, detail: `${this.header.length} of ${HEADER_BYTES} header bytes` };
    if (this.body !== null)
      return { torn: true, detail: `${this.body.received} of ${this.body.length} body bytes` };
    if (this.skipping > 0) return { torn: true, detail: `${this.skipping} bytes of a refused frame missing` };
    return { torn: false };
  }

  private readHeader(chunk: Buffer, offset: number, events: FrameEvent[]): number {
    const take = Math.min(HEADER_BYTES - this.header.length, chunk.length - offset);
    this.header = Buffer.concat([this.header, chunk.subarray(offset, offset + take)]);
    if (this.header.length < HEADER_BYTES) return offset + take;
    const length = LITTLE_ENDIAN ? this.header.readUInt32LE(0) : this.header.readUInt32BE(0);
    this.header = Buffer.alloc(0);
    if (length > this.maxBytes) {
      this.skipping = length;
      events.push({ kind: 'oversize', length });
    } else if (length === 0) {
      this.fail(events, 'an empty frame');
    } else {
      this.body = { length, parts: [], received: 0 };
    }
    return offset + take;
  }

  private readBody(chunk: Buffer, offset: number, events: FrameEvent[]): number {
    const body = this.body;
    if (body === null) return offset;
    const take = Math.min(body.length - body.received, chunk.length - offset);
    body.parts.push(chunk.subarray(offset, offset + take));
    body.received += take;
    if (body.received === body.length) {
      this.body = null;
      this.decode(Buffer.concat(body.parts, body.length), events);
    }
    return offset + take;
  }

  private decode(bytes: Buffer, events: FrameEvent[]): void {
    let text: string;
    try {
      text = this.utf8.decode(bytes);
    } catch {
      this.fail(events, `a frame of ${bytes.length} bytes that is not UTF-8`);
      return;
    }
    try {
      events.push({ kind: 'message', value: JSON.parse(text) as unknown });
    } catch {
      this.fail(events, `a frame of ${bytes.length} bytes that is not JSON`);
    }
  }

  private fail(events: FrameEvent[], reason: string): void {
    this.broken = true;
    events.push({ kind: 'garbage', reason });
  }
}
