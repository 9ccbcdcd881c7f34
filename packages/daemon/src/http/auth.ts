/**
 * The four-layer gate, run at onRequest for every HTTP request and every WS upgrade, before any body
 * is read: Host, Origin, Sec-Fetch-Site, then the route's secret. Host and Origin are compared as exact
 * strings. A rejection is a bare 401 that says nothing about which layer failed and never touches the
 * pairing throttle.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import {
  CLIENT_PROOF_PATH,
  DAEMON_PROOF_PATH,
  WS_SUBPROTOCOL,
  tokenFromWsAuthProtocol,
} from '@bproxy/protocol';

/**
 * `pairing` routes carry no header secret: /pair/claim takes the code in its body, /pair/proof takes
 * only a nonce and gives nothing away but a proof made for that nonce. Both require our Origin.
 * `client-proof` (/client/proof) carries no header secret either: a client (CLI, MCP server, agent)
 * asks there, with a nonce only, for the daemon to prove it holds the daemon token before the client
 * sends its bearer. Clients send no Origin, so the route takes none.
 */
export type RouteSecret = 'bearer' | 'pairing' | 'client-proof' | 'ws';

export interface GateConfig {
  /** The port the daemon is reached on (read lazily: with BPROXY_PORT=0 it is known only after listen). */
  port(): number;
  /**
   * The trusted extension ids (BPROXY_HOME/extensions.json and the built-in ones); a function is asked
   * at each decision that names an extension Origin (the daemon's follows the file as it changes).
   */
  extensionIds: readonly string[] | (() => readonly string[]);
  daemonToken: string;
  /** The active extension token, or null before the first pairing. */
  extensionToken(): string | null;
}

/** Constant-time equality of two secrets of any length (hashing first hides the length too). */
export function secretEquals(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

function single(value: string | string[] | undefined): string | undefined | null {
  if (Array.isArray(value)) return null; // a repeated header is never legitimate here
  return value;
}

/** Which secret a path needs. Unknown paths need the bearer, so probing them says nothing. */
export function routeSecretFor(method: string, path: string): RouteSecret {
  if (path === '/ws' && method === 'GET') return 'ws';
  if (path === '/pair/claim' || path === DAEMON_PROOF_PATH) return 'pairing';
  if (path === CLIENT_PROOF_PATH && method === 'POST') return 'client-proof';
  return 'bearer';
}

/**
 * Parses `Sec-WebSocket-Protocol: bproxy.v1, auth.<base64url(token)>` (exactly these two entries) and
 * returns the token string the entry encodes.
 */
export function parseWsProtocols(header: string | undefined): { token: string } | null {
  if (header === undefined || header.length > 1024) return null;
  const parts = header.split(',').map((p) => p.trim());
  if (parts.length !== 2 || parts[0] !== WS_SUBPROTOCOL) return null;
  const token = parts[1] === undefined ? null : tokenFromWsAuthProtocol(parts[1]);
  return token !== null && /^[A-Za-z0-9_-]{16,256}$/.test(token) ? { token } : null;
}

const SINGLE_VALUED = new Set([
  'host',
  'origin',
  'sec-fetch-site',
  'authorization',
  'sec-websocket-protocol',
]);

/** Node keeps the first of some repeated headers and drops the rest; a repeat is never legitimate here. */
function hasRepeatedGateHeader(rawHeaders: readonly string[]): boolean {
  const seen = new Set<string>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]?.toLowerCase() ?? '';
    if (!SINGLE_VALUED.has(name)) continue;
    if (seen.has(name)) return true;
    seen.add(name);
  }
  return false;
}

/** Whether `origin` is exactly `chrome-extension://<id>` for one of the trusted ids. */
export function isTrustedExtensionOrigin(ids: readonly string[], origin: string): boolean {
  return ids.some((id) => origin === `chrome-extension://${id}`);
}

function trustedIdsOf(config: GateConfig): readonly string[] {
  return typeof config.extensionIds === 'function' ? config.extensionIds() : config.extensionIds;
}

/** Returns true when the request may proceed to its route. */
export function passesGate(
  config: GateConfig,
  method: string,
  url: string,
  headers: IncomingHttpHeaders,
  rawHeaders: readonly string[] = [],
): boolean {
  const path = url.split('?')[0] ?? url;
  if (hasRepeatedGateHeader(rawHeaders)) return false;
  const secret = routeSecretFor(method, path);

  // 1. Host: exactly our loopback name and port; anything else (rebinding, proxies, absent) is refused.
  const host = single(headers.host);
  const port = config.port();
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return false;

  // 2. Origin: absent (CLI) or exactly one of the trusted extensions. Browser-facing routes require it.
  const origin = single(headers.origin);
  if (origin === null) return false;
  if (origin !== undefined && !isTrustedExtensionOrigin(trustedIdsOf(config), origin)) return false;
  if (origin === undefined && (secret === 'ws' || secret === 'pairing')) return false;
  if (origin !== undefined && secret === 'client-proof') return false;

  // 3. Fetch metadata: a page on another localhost port says same-site; only none/same-origin pass.
  const site = single(headers['sec-fetch-site']);
  if (site === null) return false;
  if (site !== undefined && site !== 'none' && site !== 'same-origin') return false;

  // 4. The route's secret. /pair/claim carries its secret (the code) in the body, checked by the route.
  if (secret === 'bearer') {
    const auth = single(headers.authorization);
    if (typeof auth !== 'string' || !auth.startsWith('Bearer ')) return false;
    return secretEquals(auth.slice('Bearer '.length), config.daemonToken);
  }
  if (secret === 'ws') {
    const parsed = parseWsProtocols(single(headers['sec-websocket-protocol']) ?? undefined);
    const active = config.extensionToken();
    if (!parsed || active === null) return false;
    return secretEquals(parsed.token, active);
  }
  return true;
}
