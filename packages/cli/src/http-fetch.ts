/**
 * POST / over the runtime's fetch, for the compiled binary. Fetch sends no Origin and no fetch
 * metadata outside a browser, so the daemon's gate sees the same bare CLI request as over node:http.
 */
import { connectError, timeoutError, type PostCommand } from './http';

function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
}

export const postCommand: PostCommand = async (endpoint, body, timeoutMs) => {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const res = await fetch(`http://127.0.0.1:${endpoint.port}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${endpoint.token}` },
      body,
      signal,
      redirect: 'error',
    });
    return { status: res.status, body: await res.text() };
  } catch (error) {
    if (signal.aborted) throw timeoutError(timeoutMs);
    throw connectError(endpoint, errorCode(error), error instanceof Error ? error.message : String(error));
  }
};
