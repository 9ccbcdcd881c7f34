/**
 * The one failure type of browser drivers: a local Error that carries the wire error to answer with.
 * Handlers throw it (through `fail`) for failures they mean; whatever else escapes a handler is mapped
 * by the driver itself (by class, never by message), and becomes DRIVER_ERROR when it knows no better.
 */
import { makeError, type BproxyError, type ErrorCode } from '@bproxy/protocol';

export class DriverFailure extends Error {
  override readonly name = 'DriverFailure';
  constructor(readonly error: BproxyError) {
    super(`${error.code}: ${error.message}`);
  }
}

/** Throws a DriverFailure whose category, retry and hint come from the catalogue. */
export function fail(
  code: ErrorCode,
  message: string,
  extra: { reason?: string; details?: Record<string, unknown> } = {},
): never {
  throw new DriverFailure(makeError(code, message, extra));
}

/** A message for logs and DRIVER_ERROR answers, whatever was thrown. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return JSON.stringify(error) ?? String(error);
}
