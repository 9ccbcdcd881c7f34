/**
 * Host → browser messages larger than Chrome's 1 MiB frame limit travel as `chunk` messages: the host
 * splits the message's UTF-8 bytes into slices, sends each base64-encoded in order, and the extension
 * reassembles them. Both ends use this one file, so the split and the reassembly cannot disagree.
 *
 * Base64 of byte slices, not slices of the JSON text: a text slice could cut a surrogate pair, and the
 * JSON escaping of a slice grows unpredictably, while base64 grows by exactly 4/3. Zod-free and free
 * of `node:` (btoa, atob and TextEncoder exist in Node and in the service worker); the caller validates
 * each chunk against NativeChunkSchema before handing it to the reassembler.
 */
import type { NativeChunk } from './native';

/** Chrome's limit on one host → browser message (NATIVE_MAX_TO_BROWSER, repeated to stay zod-free). */
const MAX_FRAME_BYTES = 1024 * 1024;
/** Room in a frame for the chunk's own fields around its data (the id is at most 64 characters). */
const ENVELOPE_BYTES = 256;
/** NativeChunkSchema's bound on `count`. */
export const NATIVE_MAX_CHUNKS = 4096;

const encoder = new TextEncoder();

function toBase64(bytes: Uint8Array): string {
  // btoa takes a "binary string". Passing 4 KiB slices as call arguments and joining once is many
  // times faster than spreading them (an iterator) or appending to one growing string.
  const parts: string[] = [];
  for (let i = 0; i < bytes.length; i += 0x1000) {
    const part: string = Reflect.apply(String.fromCharCode, null, bytes.subarray(i, i + 0x1000));
    parts.push(part);
  }
  return btoa(parts.join(''));
}

function fromBase64(data: string): Uint8Array | null {
  let binary: string;
  try {
    binary = atob(data);
  } catch {
    return null;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * The frames (JSON texts) that carry the message `json`: the message itself when its UTF-8 form fits
 * in `maxFrameBytes`, else `chunk` messages named `chunkId`, each of which fits. Throws a RangeError
 * when the message would need more than NATIVE_MAX_CHUNKS chunks.
 */
export function splitForBrowser(json: string, chunkId: string, maxFrameBytes = MAX_FRAME_BYTES): string[] {
  const bytes = encoder.encode(json);
  if (bytes.length <= maxFrameBytes) return [json];
  // Whole base64 quanta: 3 bytes become 4 characters, so a slice of 3k bytes encodes to exactly 4k.
  const slice = Math.floor((maxFrameBytes - ENVELOPE_BYTES) / 4) * 3;
  if (slice <= 0) throw new RangeError(`a frame of ${maxFrameBytes} bytes cannot carry a chunk`);
  const count = Math.ceil(bytes.length / slice);
  if (count > NATIVE_MAX_CHUNKS)
    throw new RangeError(
      `a message of ${bytes.length} bytes needs ${count} chunks, over ${NATIVE_MAX_CHUNKS}`,
    );
  const frames: string[] = [];
  for (let index = 0; index < count; index++) {
    const data = toBase64(bytes.subarray(index * slice, (index + 1) * slice));
    const chunk: NativeChunk = { type: 'chunk', chunkId, index, count, data };
    frames.push(JSON.stringify(chunk));
  }
  return frames;
}

export interface ChunkReassemblerOptions {
  /** The largest message reassembled (default 32 MiB); a larger one is dropped as it grows. */
  readonly maxMessageBytes?: number;
  /** How many messages may be in reassembly at once (default 4); the oldest is dropped for a new one. */
  readonly maxPending?: number;
  /** How long a message may take from its first chunk to its last (default 30 s). */
  readonly timeoutMs?: number;
  readonly now?: () => number;
}

export type ChunkOutcome =
  | { readonly kind: 'partial' }
  | { readonly kind: 'complete'; readonly text: string }
  /** The chunk, or the message it belonged to, was given up; `reason` is for a log line. */
  | { readonly kind: 'dropped'; readonly chunkId: string; readonly reason: string };

interface Assembly {
  readonly count: number;
  readonly startedAt: number;
  readonly parts: Uint8Array[];
  bytes: number;
}

/**
 * Reassembles chunked messages. Chunks of one message arrive in order (the host writes them one after
 * another on one pipe); anything else — a gap, a repeat, a changed count, bad base64, bytes that are
 * not UTF-8 — drops that message, never the others. Memory is bounded by maxPending × maxMessageBytes,
 * and a message whose last chunk never comes is dropped after timeoutMs (checked on every chunk, and
 * whenever the caller calls expire()).
 */
export class ChunkReassembler {
  private readonly assemblies = new Map<string, Assembly>();
  private readonly maxMessageBytes: number;
  private readonly maxPending: number;
  private readonly timeoutMs: number;
  private readonly now: () => number;

  constructor(options: ChunkReassemblerOptions = {}) {
    this.maxMessageBytes = options.maxMessageBytes ?? 32 * 1024 * 1024;
    this.maxPending = options.maxPending ?? 4;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.now = options.now ?? Date.now;
  }

  /** How many messages are part-way through. */
  get pending(): number {
    return this.assemblies.size;
  }

  accept(chunk: NativeChunk): ChunkOutcome {
    this.expire();
    const { chunkId, index, count } = chunk;
    const dropped = (reason: string): ChunkOutcome => {
      this.assemblies.delete(chunkId);
      return { kind: 'dropped', chunkId, reason };
    };
    let assembly = this.assemblies.get(chunkId);
    if (index === 0) {
      if (assembly !== undefined) this.assemblies.delete(chunkId);
      if (this.assemblies.size >= this.maxPending) {
        const oldest = this.assemblies.keys().next();
        if (!oldest.done) this.assemblies.delete(oldest.value);
      }
      assembly = { count, startedAt: this.now(), parts: [], bytes: 0 };
      this.assemblies.set(chunkId, assembly);
    } else if (assembly === undefined) {
      return dropped(`chunk ${index} of a message whose start was not received or was given up`);
    }
    if (count !== assembly.count)
      return dropped(`chunk ${index} says ${count} chunks, the first said ${assembly.count}`);
    if (index !== assembly.parts.length)
      return dropped(`chunk ${index} arrived when ${assembly.parts.length} was due`);
    const bytes = fromBase64(chunk.data);
    if (bytes === null) return dropped(`chunk ${index} is not base64`);
    assembly.bytes += bytes.length;
    if (assembly.bytes > this.maxMessageBytes)
      return dropped(`the message grew over ${this.maxMessageBytes} bytes`);
    assembly.parts.push(bytes);
    if (assembly.parts.length < assembly.count) return { kind: 'partial' };
    this.assemblies.delete(chunkId);
    const whole = new Uint8Array(assembly.bytes);
    let offset = 0;
    for (const part of assembly.parts) {
      whole.set(part, offset);
      offset += part.length;
    }
    try {
      return { kind: 'complete', text: new TextDecoder('utf-8', { fatal: true }).decode(whole) };
    } catch {
      return { kind: 'dropped', chunkId, reason: 'the reassembled message is not UTF-8' };
    }
  }

  /** Drops the messages that took longer than timeoutMs; answers their chunk ids. */
  expire(): string[] {
    const now = this.now();
    const expired: string[] = [];
    for (const [id, assembly] of this.assemblies) {
      if (now - assembly.startedAt > this.timeoutMs) expired.push(id);
    }
    for (const id of expired) this.assemblies.delete(id);
    return expired;
  }

  /** Forgets every message part-way through (the port closed). */
  clear(): void {
    this.assemblies.clear();
  }
}
