/**
 * Headers that carry credentials, replaced by `[redacted]` in every network read (network.get,
 * network.har) unless the user's settings reveal them. Matched by name, case-insensitively: the
 * standard ones, and any name that says it holds a token, a key, a secret, a session or a password.
 */
import type { NetworkRecord } from '@bproxy/protocol';

export type Header = NetworkRecord['requestHeaders'][number];

export const REDACTED = '[redacted]';

const SECRET_NAMES: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'set-cookie2',
  'www-authenticate',
  'proxy-authenticate',
]);

const SECRET_PATTERN = /(token|secret|api[-_]?key|session|passw|credential|csrf|xsrf|auth)/i;

export function isSecretHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return SECRET_NAMES.has(lower) || SECRET_PATTERN.test(lower);
}

/** The headers with secret values replaced, and the names that were (each once). */
export function redactHeaders(
  headers: readonly Header[],
  reveal: boolean,
): { headers: Header[]; redacted: string[] } {
  if (reveal) return { headers: headers.map((h) => ({ ...h })), redacted: [] };
  const redacted = new Set<string>();
  const out = headers.map((h) => {
    if (!isSecretHeader(h.name)) return { ...h };
    redacted.add(h.name.toLowerCase());
    return { name: h.name, value: REDACTED };
  });
  return { headers: out, redacted: [...redacted] };
}
