/** Envelope builders: every answer of POST / is one of these two shapes. */
import {
  httpStatusOf,
  makeError,
  type BproxyError,
  type BproxyErrorResponse,
  type BproxyOkResponse,
  type ErrorCode,
} from '@bproxy/protocol';
import type { DriverOutcome } from '../browsers/pending';

export function okResponse(id: string, data: unknown): BproxyOkResponse {
  return { id, ok: true, data };
}

export function errorResponse(id: string | null, error: BproxyError): BproxyErrorResponse {
  return { id, ok: false, error };
}

export function fail(
  code: ErrorCode,
  message: string,
  extra?: { reason?: string; details?: Record<string, unknown> },
): DriverOutcome {
  return { ok: false, error: makeError(code, message, extra) };
}

export function statusOf(outcome: { ok: boolean; error?: BproxyError }): number {
  return outcome.ok || !outcome.error ? 200 : httpStatusOf(outcome.error.code);
}
