/**
 * The browser's side of the native port, for tests: frames the messages it sends, decodes (and
 * reassembles) what the host writes, and waits — bounded — for the message it expects. Works over
 * in-memory streams (runHost in the test process) and over a real host process's pipes alike.
 */
import type { Readable, Writable } from 'node:stream';
import {
  BPROXY_VERSION,
  ChunkReassembler,
  HostToExtensionSchema,
  NATIVE_MAX_TO_BROWSER,
  NativeChunkSchema,
  type HostToExtension,
} from '@bproxy/protocol';
import { FrameDecoder, encodeFrame } from '../../src/framing';
import type { HostLog, LogFields } from '../../src/host-log';

export interface BrowserEnd {
  send(message: unknown): void;
  sendRaw(bytes: Buffer): void;
  /** The next message (in arrival order) that `match` accepts; earlier non-matching ones stay queued. */
  next(match?: (message: HostToExtension) => boolean, withinMs?: number): Promise<HostToExtension>;
  /** Every message received so far. */
  readonly received: HostToExtension[];
  /** Every frame received, as raw sizes (chunk frames included). */
  readonly frameSizes: number[];
  /** Problems with what the host wrote: not a frame, not in the protocol. */
  readonly violations: string[];
}

export function browserEnd(toHost: Writable, fromHost: Readable): BrowserEnd {
  const decoder = new FrameDecoder(NATIVE_MAX_TO_BROWSER);
  const reassembler = new ChunkReassembler();
  const received: HostToExtension[] = [];
  const frameSizes: number[] = [];
  const violations: string[] = [];
  const waiters = new Set<() => void>();
  let consumed = 0;

  const accept = (value: unknown) => {
    const message = HostToExtensionSchema.safeParse(value);
    if (message.success) received.push(message.data);
    else violations.push(`outside the protocol: ${JSON.stringify(value).slice(0, 200)}`);
  };

  fromHost.on('data', (chunk: Buffer) => {
    for (const event of decoder.push(chunk)) {
      if (event.kind !== 'message') {
        violations.push(`not a frame: ${event.kind}`);
        continue;
      }
      frameSizes.push(Buffer.byteLength(JSON.stringify(event.value)));
      const chunked = NativeChunkSchema.safeParse(event.value);
      if (!chunked.success) {
        accept(event.value);
        continue;
      }
      const outcome = reassembler.accept(chunked.data);
      if (outcome.kind === 'complete') accept(JSON.parse(outcome.text));
      else if (outcome.kind === 'dropped') violations.push(`chunk dropped: ${outcome.reason}`);
    }
    for (const wake of [...waiters]) wake();
  });

  const taken = new Set<number>();
  return {
    received,
    frameSizes,
    violations,
    send(message) {
      toHost.write(encodeFrame(JSON.stringify(message)));
    },
    sendRaw(bytes) {
      toHost.write(bytes);
    },
    next(match = () => true, withinMs = 10_000) {
      return new Promise((resolve, reject) => {
        const look = () => {
          for (let i = consumed; i < received.length; i++) {
            const message = received[i];
            if (message === undefined || taken.has(i) || !match(message)) continue;
            taken.add(i);
            while (taken.has(consumed)) consumed++;
            clearTimeout(timer);
            waiters.delete(look);
            resolve(message);
            return;
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(look);
          reject(
            new Error(
              `no matching message within ${withinMs} ms; received ${JSON.stringify(received).slice(0, 600)}`,
            ),
          );
        }, withinMs);
        waiters.add(look);
        look();
      });
    },
  };
}

export const HELLO = { type: 'hello', protocolVersion: 1, extensionVersion: BPROXY_VERSION } as const;

/** A HostLog that keeps its lines, for assertions on what the host logged. */
export class MemoryLog implements HostLog {
  readonly lines: { level: string; event: string; fields: LogFields }[] = [];
  info(event: string, fields: LogFields = {}): void {
    this.lines.push({ level: 'info', event, fields });
  }
  warn(event: string, fields: LogFields = {}): void {
    this.lines.push({ level: 'warn', event, fields });
  }
  error(event: string, fields: LogFields = {}): void {
    this.lines.push({ level: 'error', event, fields });
  }
  events(): string[] {
    return this.lines.map((line) => line.event);
  }
  text(): string {
    return JSON.stringify(this.lines);
  }
}
