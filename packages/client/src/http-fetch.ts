/**
 * POST / over the runtime's fetch, for the compiled binary. Fetch sends no Origin and no fetch
 * metadata outside a browser, so the daemon's gate sees the same bare client request as over node:http.
 * Every call first has the daemon prove itself (proof.ts) and sends the token and the request only
 * then. Fetch does not say which connection carries a request: the two are usually one kept-alive
 * socket, but may be two — see the residual in docs/security.md §6.
 */
import { CLIENT_PROOF_PATH, PROOF_REPLY_LIMIT, checkProof, proofChallenge } from './proof';
import { TransportError, type HttpReply, type Transport } from './http';

function errorCode(error: unknown): unknown {
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
  for (const candidate of [error, cause]) {
    if (typeof candidate === 'object' && candidate !== null && 'code' in candidate) return candidate.code;
  }
  return undefined;
}

async function exchange(
  url: string,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
  timeoutMs: number,
  limit: number | null,
): Promise<HttpReply> {
  try {
    const res = await fetch(url, { method: 'POST', headers, body, signal, redirect: 'error' });
    const text = await res.text();
    if (limit !== null && text.length > limit)
      throw new TransportError('not-proven', 'what listens on the port sent an oversized answer');
    return { status: res.status, body: text };
  } catch (error) {
    if (error instanceof TransportError) throw error;
    if (signal.aborted)
      throw new TransportError('timeout', `no answer within ${Math.round(timeoutMs / 1000)} s`);
    const message = error instanceof Error ? error.message : String(error);
    throw new TransportError(errorCode(error) === 'ECONNREFUSED' ? 'refused' : 'failed', message);
  }
}

export function fetchTransport(): Transport {
  return {
    async post(target, body, timeoutMs) {
      const signal = AbortSignal.timeout(timeoutMs);
      const base = `http://127.0.0.1:${target.port}`;
      const challenge = proofChallenge();
      const reply = await exchange(
        `${base}${CLIENT_PROOF_PATH}`,
        { 'content-type': 'application/json' },
        challenge.body,
        signal,
        timeoutMs,
        PROOF_REPLY_LIMIT,
      );
      await checkProof(reply, target, challenge.clientNonce);
      return exchange(
        `${base}/`,
        { 'content-type': 'application/json', authorization: `Bearer ${target.token}` },
        body,
        signal,
        timeoutMs,
        null,
      );
    },
    reset() {},
    close() {},
  };
}
