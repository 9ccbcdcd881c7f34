/** Envelope builders: every answer of POST / is one of these two shapes. */
import {
  httpStatusOf,
  type BproxyError,
  type BproxyErrorResponse,
  type BproxyOkResponse,
} from '@bproxy/protocol';

export function okResponse(id: string, data: unknown): BproxyOkResponse {
  return { id, ok: true, data };
}

export function errorResponse(id: string | null, error: BproxyError): BproxyErrorResponse {
  return { id, ok: false, error };
}

export function statusOf(outcome: { ok: boolean; error?: BproxyError }): number {
  return outcome.ok || !outcome.error ? 200 : httpStatusOf(outcome.error.code);
}
