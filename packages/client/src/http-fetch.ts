/**
 * POST / over the runtime's fetch, for the compiled binary. Fetch sends no Origin and no fetch
 * metadata outside a browser, so the daemon's gate sees the same bare client request as over node:http.
 */
import { TransportError, type Transport } from './http';

function errorCode(error: unknown): unknown {
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
  for (const candidate of [error, cause]) {
    if (typeof candidate === 'object' && candidate !== null && 'code' in candidate) return candidate.code;
  }
  return undefined;
}

export function fetchTransport(): Transport {
  return {
    async post(target, body, timeoutMs) {
      const signal = AbortSignal.timeout(timeoutMs);
      try {
        const res = await fetch(`http://127.0.0.1:${target.port}/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${target.token}` },
          body,
          signal,
          redirect: 'error',
        });
        return { status: res.status, body: await res.text() };
      } catch (error) {
        if (signal.aborted)
          throw new TransportError('timeout', `no answer within ${Math.round(timeoutMs / 1000)} s`);
        const message = error instanceof Error ? error.message : String(error);
        throw new TransportError(errorCode(error) === 'ECONNREFUSED' ? 'refused' : 'failed', message);
      }
    },
    reset() {},
    close() {},
  };
}
