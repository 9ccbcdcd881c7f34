/**
 * The gate of the bridge's DevTools endpoint, checked on every HTTP request and WebSocket upgrade
 * before anything else is read. Chrome's own endpoint answers any local caller, which lets any local
 * process or a DNS-rebinding page that learns the path drive the browser; this one admits a caller
 * only when all of these hold:
 *
 *   0. none of Host, Origin, Sec-Fetch-Site, Authorization is repeated (Node keeps the first Host or
 *      Authorization and drops the rest, so a repeat could smuggle a second value past a reader);
 *   1. Host is exactly 127.0.0.1:PORT or localhost:PORT (a rebinding page sends its own name);
 *   2. no Origin and no Sec-Fetch-Site header — CDP tools send neither; browsers always send them;
 *   3. the secret: `Authorization: Bearer <token>`, or, for the WebSocket only, the unguessable
 *      path /devtools/browser/<token> that /json/version reveals to a caller that passed 1–3.
 *
 * Every refusal is the same bare 401, naming no layer.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export const BROWSER_PATH_PREFIX = '/devtools/browser/';

export interface GateRequest {
  readonly url?: string | undefined;
  readonly headers: IncomingHttpHeaders;
  /** The headers as received, names and values alternating (Node's `rawHeaders`). */
  readonly rawHeaders: readonly string[];
}

/** The headers the gate reads: each may appear once. */
const SINGLE_VALUED = new Set(['host', 'origin', 'sec-fetch-site', 'authorization']);

function repeatsGateHeader(rawHeaders: readonly string[]): boolean {
  const seen = new Set<string>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] ?? '').toLowerCase();
    if (!SINGLE_VALUED.has(name)) continue;
    if (seen.has(name)) return true;
    seen.add(name);
  }
  return false;
}

export type GateVerdict = { ok: true; host: string } | { ok: false };

/** Equal strings in time that does not depend on where they differ (nor, here, on their lengths). */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  const padded = Buffer.alloc(b.length);
  a.copy(padded, 0, 0, Math.min(a.length, b.length));
  return timingSafeEqual(padded, b) && a.length === b.length;
}

function pathOf(url: string | undefined): string | undefined {
  if (url === undefined || !url.startsWith('/')) return undefined;
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

function bearer(headers: IncomingHttpHeaders): string | undefined {
  const value = headers.authorization;
  if (typeof value !== 'string' || !value.startsWith('Bearer ')) return undefined;
  return value.slice('Bearer '.length);
}

export function checkGate(
  request: GateRequest,
  expected: { port: number; token: string },
  kind: 'http' | 'websocket',
): GateVerdict {
  if (repeatsGateHeader(request.rawHeaders)) return { ok: false };
  const host = request.headers.host;
  if (host !== `127.0.0.1:${expected.port}` && host !== `localhost:${expected.port}`) return { ok: false };
  if (request.headers.origin !== undefined || request.headers['sec-fetch-site'] !== undefined)
    return { ok: false };
  const path = pathOf(request.url);
  if (path === undefined) return { ok: false };
  const given = bearer(request.headers);
  if (given !== undefined) return sameSecret(given, expected.token) ? { ok: true, host } : { ok: false };
  if (kind === 'websocket' && path.startsWith(BROWSER_PATH_PREFIX)) {
    return sameSecret(path.slice(BROWSER_PATH_PREFIX.length), expected.token)
      ? { ok: true, host }
      : { ok: false };
  }
  return { ok: false };
}
