import { describe, expect, it } from 'vitest';
import {
  base64UrlDecode,
  base64UrlEncode,
  computeProof,
  freshNonce,
  tokenFromWsAuthProtocol,
  verifyProof,
  wsAuthProtocol,
  type ProofInput,
} from '../../src/index';

const SECRET = 'tok_abcdefghijklmnopqrstuvwxyz012345';
const input = (): ProofInput => ({
  role: 'daemon-to-extension',
  port: 9615,
  clientNonce: freshNonce(),
  serverNonce: freshNonce(),
});

describe('the daemon proof (both sides share this code)', () => {
  it('verifies a proof made with the same secret, role, port and nonces', async () => {
    const i = input();
    const proof = await computeProof(SECRET, i);
    expect(proof).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await verifyProof(SECRET, i, proof)).toEqual({ ok: true });
  });

  it('refuses a wrong secret, role, port or nonce as a mismatch', async () => {
    const i = input();
    const proof = await computeProof(SECRET, i);
    for (const [secret, changed] of [
      ['x'.repeat(43), i],
      [SECRET, { ...i, role: 'extension-to-daemon' as const }],
      [SECRET, { ...i, port: 9616 }],
      [SECRET, { ...i, clientNonce: freshNonce() }],
      [SECRET, { ...i, serverNonce: freshNonce() }],
    ] as const) {
      expect(await verifyProof(secret, changed, proof)).toEqual({ ok: false, reason: 'mismatch' });
    }
  });

  it('refuses a truncated, padded or non-base64url proof as malformed', async () => {
    const i = input();
    const proof = await computeProof(SECRET, i);
    for (const bad of [
      proof.slice(0, 42),
      proof.slice(0, 8),
      `${proof}A`,
      `${proof.slice(0, 42)}=`,
      '',
      '*'.repeat(43),
    ])
      expect(await verifyProof(SECRET, i, bad)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('refuses an answer that reflects the client nonce', async () => {
    const i = input();
    const reflected = { ...i, serverNonce: i.clientNonce };
    const proof = await computeProof(SECRET, reflected);
    expect(await verifyProof(SECRET, reflected, proof)).toEqual({ ok: false, reason: 'reflected' });
  });

  it('makes a different nonce every time', () => {
    const nonces = new Set(Array.from({ length: 100 }, freshNonce));
    expect(nonces.size).toBe(100);
    for (const n of nonces) expect(base64UrlDecode(n)?.length).toBe(32);
  });

  it("round-trips base64url and the seed's auth.{base64url(token)} subprotocol entry", () => {
    const bytes = new Uint8Array([0, 1, 250, 251, 252, 253, 254, 255]);
    expect(base64UrlDecode(base64UrlEncode(bytes))).toEqual(bytes);
    expect(base64UrlDecode('a+b/')).toBeNull();
    expect(wsAuthProtocol(SECRET)).toBe(`auth.${Buffer.from(SECRET).toString('base64url')}`);
    expect(tokenFromWsAuthProtocol(wsAuthProtocol(SECRET))).toBe(SECRET);
    expect(tokenFromWsAuthProtocol('bproxy.v1')).toBeNull();
    expect(tokenFromWsAuthProtocol('auth.')).toBeNull();
    expect(tokenFromWsAuthProtocol(`auth.${Buffer.from([0xff, 0xfe]).toString('base64url')}`)).toBeNull();
  });
});
