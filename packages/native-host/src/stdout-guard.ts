/**
 * stdout is the port: one stray byte on it (a console.log in a library, a warning) desynchronises
 * Chrome's framing and the browser closes the port. So the host takes stdout for itself before it
 * loads anything else: frames go through the stream this returns; process.stdout.write and every
 * console method are rebound to record, in host.log, that something tried to print — its method and
 * size, never its content, which may be page text or a secret — and to drop it.
 *
 * Child processes are out of its reach: a handler that spawns one must give it its own stdio.
 */
import { Writable } from 'node:stream';
import type { HostLog } from './host-log';

type WriteCallback = (error?: Error | null) => void;

const CONSOLE_METHODS = [
  'log',
  'info',
  'warn',
  'error',
  'debug',
  'trace',
  'dir',
  'dirxml',
  'table',
  'group',
  'groupCollapsed',
  'assert',
  'count',
  'time',
  'timeEnd',
  'timeLog',
] as const;

function sizeOf(chunk: unknown): number {
  if (typeof chunk === 'string') return Buffer.byteLength(chunk);
  if (chunk instanceof Uint8Array) return chunk.length;
  return 0;
}

/**
 * Takes process.stdout for the frames. Returns the only stream that still writes to it; from now on
 * anything else that writes there is logged (as `stray_stdout_write` / `stray_console`) and dropped.
 */
export function takeStdout(log: HostLog, stdout: NodeJS.WriteStream = process.stdout): Writable {
  const realWrite = stdout.write.bind(stdout) as (chunk: Uint8Array, callback: WriteCallback) => boolean;
  // A browser that closed the port makes writes fail (EPIPE): each failed write reports it through
  // its callback to `frames`, whose owner handles it; the stream's own error event must not crash us.
  stdout.on('error', () => undefined);
  const frames = new Writable({
    write(chunk: Buffer, _encoding, callback: WriteCallback) {
      realWrite(chunk, callback);
    },
  });
  const stray = (...args: unknown[]): boolean => {
    log.warn('stray_stdout_write', { bytes: sizeOf(args[0]) });
    const callback = args.find((arg): arg is WriteCallback => typeof arg === 'function');
    if (callback !== undefined) queueMicrotask(() => callback());
    return true;
  };
  stdout.write = stray as typeof stdout.write;
  for (const method of CONSOLE_METHODS) {
    Object.defineProperty(console, method, {
      configurable: true,
      writable: true,
      value: (...args: unknown[]) => {
        log.warn('stray_console', { method, args: args.length });
      },
    });
  }
  return frames;
}
