/**
 * Local failures that carry a wire error. Handlers throw DriverFailure with a catalogue code; anything
 * else that escapes a handler becomes DRIVER_ERROR. Platform error messages are matched here, in one
 * place, because chrome.* reports its failures only as text.
 */
import { BproxyErrorSchema, makeError, type BproxyError, type ErrorCode } from '@bproxy/protocol';

export class DriverFailure extends Error {
  constructor(readonly error: BproxyError) {
    super(`${error.code}: ${error.message}`);
    this.name = 'DriverFailure';
  }
}

export function fail(
  code: ErrorCode,
  message: string,
  extra?: { reason?: string; details?: Record<string, unknown> },
): never {
  throw new DriverFailure(makeError(code, message, extra));
}

export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return JSON.stringify(error) ?? String(error);
}

const NOT_SCRIPTABLE = [
  /cannot access (a |contents of )?(chrome|edge|about|devtools|chrome-extension|view-source)/i,
  /cannot access contents of (url|the page)/i,
  /cannot be scripted/i,
  /showing error page/i,
  /extension manifest must request permission/i,
  /cannot access a chrome/i,
];

/** Maps a chrome.* rejection to a catalogue error. */
export function fromPlatformError(error: unknown, what: string): BproxyError {
  if (error instanceof DriverFailure) return error.error;
  const message = messageOf(error);
  if (/no tab with id/i.test(message)) return makeError('TAB_NOT_FOUND', `${what}: the tab is gone`);
  if (NOT_SCRIPTABLE.some((re) => re.test(message))) {
    return makeError('PAGE_NOT_SCRIPTABLE', `${what}: the browser forbids scripts on this page (${message})`);
  }
  return makeError('DRIVER_ERROR', `${what}: ${message}`);
}

/** Parses an error that came back from the page script, which should already be a wire error. */
export function fromPageError(value: unknown, action: string): BproxyError {
  const parsed = BproxyErrorSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  return makeError('DRIVER_ERROR', `the page script answered ${action} with an error outside the protocol`);
}

/** Resolves with `work`, or rejects with TIMEOUT when the deadline (epoch ms) passes first. */
export function withDeadline<T>(
  work: Promise<T>,
  deadline: number,
  what: string,
  now: () => number = Date.now,
): Promise<T> {
  const remaining = deadline - now();
  if (remaining <= 0)
    return Promise.reject(new DriverFailure(makeError('TIMEOUT', `${what}: the deadline passed`)));
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new DriverFailure(makeError('TIMEOUT', `${what}: not finished before the deadline`))),
      remaining,
    );
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
