/** The failed outcome of an action: what a handler returns when it refuses, with a catalogue code. */
import { makeError, type ErrorCode } from '@bproxy/protocol';
import type { DriverOutcome } from '../browsers/forwarded-requests';

export function failed(
  code: ErrorCode,
  message: string,
  extra?: { reason?: string; details?: Record<string, unknown>; hint?: string },
): DriverOutcome {
  return { ok: false, error: makeError(code, message, extra) };
}
