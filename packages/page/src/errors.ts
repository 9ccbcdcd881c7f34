/**
 * Failures inside the page script. Handlers throw a PageError with a catalogue code; the dispatcher turns
 * it into the `{ ok: false, error }` answer. Anything else thrown is a bug and becomes DRIVER_ERROR.
 */
import { makeError, type ErrorCode } from '@bproxy/protocol/plain';
import type { PageResult } from './api';

export class PageError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'PageError';
  }
}

export function failure(error: unknown): PageResult {
  if (error instanceof PageError) {
    const extra = error.details === undefined ? {} : { details: error.details };
    return { ok: false, error: makeError(error.code, error.message, extra) };
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { ok: false, error: makeError('DRIVER_ERROR', `page script failed: ${message}`.slice(0, 4000)) };
}
