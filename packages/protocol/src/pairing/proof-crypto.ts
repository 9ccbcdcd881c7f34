/**
 * The proof's cryptography, zod-free so that the daemon client (which loads no zod) shares it with the
 * daemon and the extension: an HMAC-SHA-256 over a label, the direction, the port and both nonces.
 * WebCrypto only (globalThis.crypto): the same code runs in Node and in the worker. The wire shapes
 * and the extension's route are in daemon-proof.ts.
 */

/** Where a client (CLI, MCP server, agent) asks the daemon to prove it holds the daemon token. */
export const CLIENT_PROOF_PATH = '/client/proof';

/** 32 random bytes, base64url without padding. */
export const NONCE_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** An HMAC-SHA-256 tag, base64url without padding. */
export const PROOF_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Who speaks to whom. Each direction has its own label, so a MAC one side computed can never pass as
 * the other side's proof.
 */
export type ProofRole = 'daemon-to-extension' | 'extension-to-daemon' | 'daemon-to-client';

const LABEL = 'bproxy pairing proof v1';

export interface ProofInput {
  role: ProofRole;
  /** The port the client dialled and the daemon is bound to. */
  port: number;
  clientNonce: string;
  serverNonce: string;
}

function proofMessage(input: ProofInput): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(
    [LABEL, input.role, String(input.port), input.clientNonce, input.serverNonce].join('\n'),
  );
}

function hmacKey(secret: string, usage: 'sign' | 'verify'): Promise<CryptoKey> {
  return globalThis.crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    [usage],
  );
}

export function base64UrlEncode(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** null when the text is not base64url. */
export function base64UrlDecode(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  try {
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** A fresh nonce: 32 bytes from the platform's CSPRNG. */
export function freshNonce(): string {
  return base64UrlEncode(globalThis.crypto.getRandomValues(new Uint8Array(32)));
}

export async function computeProof(secret: string, input: ProofInput): Promise<string> {
  const key = await hmacKey(secret, 'sign');
  const tag = await globalThis.crypto.subtle.sign('HMAC', key, proofMessage(input));
  return base64UrlEncode(new Uint8Array(tag));
}

export type ProofVerdict = { ok: true } | { ok: false; reason: 'malformed' | 'reflected' | 'mismatch' };

/**
 * Checks a proof in constant time (WebCrypto's HMAC verify). A proof of the wrong length or alphabet,
 * an answer that echoes the client's own nonce, and a tag made with another secret, role, port or
 * nonce are all refused.
 */
export async function verifyProof(secret: string, input: ProofInput, proof: string): Promise<ProofVerdict> {
  const tag = PROOF_PATTERN.test(proof) ? base64UrlDecode(proof) : null;
  if (!tag || tag.length !== 32 || !NONCE_PATTERN.test(input.serverNonce))
    return { ok: false, reason: 'malformed' };
  if (input.serverNonce === input.clientNonce) return { ok: false, reason: 'reflected' };
  const key = await hmacKey(secret, 'verify');
  const good = await globalThis.crypto.subtle.verify('HMAC', key, tag, proofMessage(input));
  return good ? { ok: true } : { ok: false, reason: 'mismatch' };
}
