/**
 * The popup's side of pairing: normalise what the person typed, POST /pair/claim to the daemon on
 * 127.0.0.1, and turn every outcome into one sentence a person can act on. No storage here: a
 * successful bootstrap is handed to the worker, which validates and stores it.
 */
import {
  PAIRING_CODE_PATTERN,
  PAIRING_DIRECT_CODE_PATTERN,
  PairClaimResponseSchema,
  type PairBootstrap,
  type PairingErrorCode,
} from '@bproxy/protocol';
import { untrustedDaemonHint } from './user-commands';

export type ClaimFailure =
  PairingErrorCode | 'CODE_FORMAT' | 'PORT' | 'NETWORK' | 'UNAUTHORIZED' | 'BAD_ANSWER';
export type ClaimOutcome =
  { ok: true; bootstrap: PairBootstrap } | { ok: false; failure: ClaimFailure; message: string };

export const FAILURE_MESSAGES: Record<ClaimFailure, string> = {
  PAIRING_CODE_INVALID:
    'The daemon does not know that code. Copy the pairingCode printed by `bproxy service start` (like ABCD-EFGH).',
  PAIRING_CODE_EXPIRED:
    'That code has expired: codes last 5 minutes. Restart the daemon (`bproxy service stop`, then `bproxy service start`) for a new one.',
  PAIRING_CODE_CONSUMED:
    'That code was already used: each code pairs once. Restart the daemon (`bproxy service stop`, then `bproxy service start`) for a new one.',
  PAIRING_RATE_LIMITED:
    'Too many wrong codes in the last minute. Wait a minute, then try again with the right code.',
  CODE_FORMAT: 'A pairing code is 8 letters, like ABCD-EFGH.',
  PORT: 'The port is a number between 1 and 65535 (bproxy uses 9615 unless BPROXY_PORT says otherwise).',
  NETWORK:
    'Cannot reach bproxy on this computer at that port. Is the daemon running (`bproxy service status`), and is the port right?',
  UNAUTHORIZED: untrustedDaemonHint(),
  BAD_ANSWER:
    'The daemon answered something unexpected. Are the daemon and the extension the same bproxy version?',
};

/** "abcd efgh", "ABCDEFGH", " abcd-efgh " → "ABCD-EFGH"; null when it cannot be a code. */
export function normalizeCode(input: string): string | null {
  const letters = input.toUpperCase().replace(/[^A-Z]/g, '');
  if (letters.length !== 8) return null;
  const code = `${letters.slice(0, 4)}-${letters.slice(4)}`;
  return PAIRING_CODE_PATTERN.test(code) ? code : null;
}

export function parsePort(input: string): number | null {
  if (!/^\d{1,5}$/.test(input.trim())) return null;
  const port = Number(input.trim());
  return port >= 1 && port <= 65535 ? port : null;
}

function failure(code: ClaimFailure): ClaimOutcome {
  return { ok: false, failure: code, message: FAILURE_MESSAGES[code] };
}

/**
 * Claims a code on the daemon at that port. `typed`: what a person typed, normalised first. `direct`:
 * the 32-byte code the native host obtained, sent exactly as it is (the daemon's throttle does not hold
 * it, so strangers' wrong codes cannot lock zero-touch pairing out).
 */
export async function claimPairing(
  portInput: string,
  codeInput: string,
  fetchImpl: (url: string, init: RequestInit) => Promise<Response> = (url, init) => fetch(url, init),
  kind: 'typed' | 'direct' = 'typed',
): Promise<ClaimOutcome> {
  const port = parsePort(portInput);
  if (port === null) return failure('PORT');
  // Checked before sending: a typo must not count against the daemon's failed-attempt throttle.
  const code =
    kind === 'direct'
      ? PAIRING_DIRECT_CODE_PATTERN.test(codeInput)
        ? codeInput
        : null
      : normalizeCode(codeInput);
  if (code === null) return failure('CODE_FORMAT');
  let response: Response;
  try {
    response = await fetchImpl(`http://127.0.0.1:${port}/pair/claim`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
      cache: 'no-store',
    });
  } catch {
    return failure('NETWORK');
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return failure(response.status === 401 ? 'UNAUTHORIZED' : 'BAD_ANSWER');
  }
  const parsed = PairClaimResponseSchema.safeParse(body);
  if (!parsed.success) return failure(response.status === 401 ? 'UNAUTHORIZED' : 'BAD_ANSWER');
  if (!parsed.data.ok) return failure(parsed.data.error.code);
  return { ok: true, bootstrap: parsed.data.data };
}

/** Any HTTP answer (the gate's 401 included) proves the daemon listens on that port. */
export async function probeDaemon(
  origin: string,
  fetchImpl: (url: string, init: RequestInit) => Promise<Response> = (url, init) => fetch(url, init),
): Promise<boolean> {
  try {
    await fetchImpl(`${origin}/`, { method: 'GET', cache: 'no-store' });
    return true;
  } catch {
    return false;
  }
}
