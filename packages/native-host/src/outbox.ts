/**
 * Messages to the browser: each is validated against HostToExtensionSchema (the host checks what it
 * sends as the extension checks what it receives), serialised, split into chunks when its UTF-8 form
 * is over Chrome's 1 MiB, framed and written in order. A message that fails validation is a bug of the
 * host: it is logged by type only and replaced by an INTERNAL_ERROR error tied to the same request.
 *
 * stdout is a pipe the browser reads at its own pace: when it holds more than its high-water mark the
 * outbox reports itself full, and calls its drain listeners once the browser has taken it, so that a
 * source that can produce without end (a terminal running `yes`) waits rather than filling memory.
 */
import type { Writable } from 'node:stream';
import {
  HostToExtensionSchema,
  NATIVE_MAX_TO_BROWSER,
  formatIssues,
  splitForBrowser,
  type HostToExtension,
} from '@bproxy/protocol';
import { encodeFrame } from './framing';
import type { OutputFlow } from './handlers';
import type { HostLog } from './host-log';

/** The request or chat a message answers, copied onto an error that replaces it. */
function tiesOf(message: Record<string, unknown>): { id?: string; chatId?: string; termId?: string } {
  const ties: { id?: string; chatId?: string; termId?: string } = {};
  for (const key of ['id', 'chatId', 'termId'] as const) {
    const value = message[key];
    if (typeof value === 'string' && /^[A-Za-z0-9_.:-]{1,64}$/.test(value)) ties[key] = value;
  }
  return ties;
}

export class Outbox implements OutputFlow {
  private chunkIds = 0;
  private lastWrite: Promise<void> = Promise.resolve();
  private closed = false;
  private backlog = false;
  private readonly drainListeners = new Set<() => void>();

  constructor(
    private readonly stdout: Writable,
    private readonly log: HostLog,
    private readonly maxFrameBytes = NATIVE_MAX_TO_BROWSER,
  ) {
    // The browser closed its end (EPIPE): nothing more can reach it, and the host is about to see
    // stdin end. An unhandled stream error would crash the host instead.
    stdout.on('error', (error) => {
      if (!this.closed) log.warn('stdout_closed', { reason: error.message });
      this.closed = true;
    });
  }

  send(message: HostToExtension): void {
    if (this.closed) return;
    const checked = HostToExtensionSchema.safeParse(message);
    if (!checked.success) {
      this.log.error('invalid_outgoing', {
        type: message.type,
        issues: formatIssues(checked.error, message),
      });
      this.write(
        JSON.stringify({
          type: 'error',
          ...tiesOf(message as Record<string, unknown>),
          code: 'INTERNAL_ERROR',
          message: `the native host built an invalid ${message.type} message`,
        }),
      );
      return;
    }
    this.write(JSON.stringify(checked.data));
  }

  get full(): boolean {
    return this.backlog;
  }

  onDrain(listener: () => void): void {
    this.drainListeners.add(listener);
  }

  /** Resolves once everything sent so far has been handed to the operating system. */
  flush(): Promise<void> {
    return this.lastWrite;
  }

  /** Sends nothing more (the port is closing). */
  close(): void {
    this.closed = true;
    this.drainListeners.clear();
  }

  private write(json: string): void {
    let frames: string[];
    try {
      frames = splitForBrowser(json, `c${++this.chunkIds}`, this.maxFrameBytes);
    } catch (error) {
      this.log.error('outgoing_too_large', { bytes: Buffer.byteLength(json), reason: String(error) });
      return;
    }
    if (frames.length > 1)
      this.log.info('chunked', { frames: frames.length, bytes: Buffer.byteLength(json) });
    for (const frame of frames) {
      let accepted = true;
      const written = new Promise<void>((resolve) => {
        accepted = this.stdout.write(encodeFrame(frame), () => resolve());
      });
      this.lastWrite = this.lastWrite.then(() => written);
      if (!accepted && !this.backlog) {
        this.backlog = true;
        this.stdout.once('drain', () => {
          this.backlog = false;
          for (const listener of this.drainListeners) listener();
        });
      }
    }
  }
}
