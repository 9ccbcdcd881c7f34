import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '@bproxy/protocol';
import { FAILURE_MESSAGES, claimPairing, normalizeCode } from '../../src/common/pair-client';

const bootstrap = (overrides: Record<string, unknown> = {}) => ({
  extensionToken: 'tok_abcdefghijklmnopqrstuvwxyz012345',
  wsUrl: 'ws://127.0.0.1:9615/ws',
  protocolVersion: PROTOCOL_VERSION,
  issuedAt: 1,
  expiresAt: 2,
  nonce: 'nonce-1',
  ...overrides,
});

function answering(status: number, body: unknown): typeof fetch {
  return async () => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status });
}

describe('popup pairing claim', () => {
  it('accepts the code however it was typed', () => {
    expect(normalizeCode(' abcd efgh ')).toBe('ABCD-EFGH');
    expect(normalizeCode('ABCDEFGH')).toBe('ABCD-EFGH');
    expect(normalizeCode('ABC-EFGH')).toBeNull();
  });

  it('does not send a malformed code or port to the daemon', async () => {
    let calls = 0;
    const counting: typeof fetch = async () => {
      calls += 1;
      return new Response('{}');
    };
    expect(await claimPairing('9615', 'ABC', counting)).toMatchObject({ ok: false, failure: 'CODE_FORMAT' });
    expect(await claimPairing('99999', 'ABCD-EFGH', counting)).toMatchObject({ ok: false, failure: 'PORT' });
    expect(calls).toBe(0);
  });

  it('posts the code and returns the bootstrap', async () => {
    let sent: { url: string; body: unknown } | null = null;
    const capture: typeof fetch = async (url, init) => {
      sent = { url: String(url), body: JSON.parse(String(init?.body)) };
      return new Response(JSON.stringify({ ok: true, data: bootstrap() }), { status: 200 });
    };
    const outcome = await claimPairing('9615', 'abcd-efgh', capture);
    expect(outcome).toEqual({ ok: true, bootstrap: bootstrap() });
    expect(sent).toEqual({ url: 'http://127.0.0.1:9615/pair/claim', body: { code: 'ABCD-EFGH' } });
  });

  it.each([
    ['PAIRING_CODE_INVALID', 401],
    ['PAIRING_CODE_EXPIRED', 401],
    ['PAIRING_CODE_CONSUMED', 401],
    ['PAIRING_RATE_LIMITED', 429],
  ] as const)('explains %s in words', async (code, status) => {
    const outcome = await claimPairing(
      '9615',
      'ABCD-EFGH',
      answering(status, { ok: false, error: { code } }),
    );
    expect(outcome).toEqual({ ok: false, failure: code, message: FAILURE_MESSAGES[code] });
  });

  it('explains an unreachable daemon and a refused extension', async () => {
    const down: typeof fetch = async () => {
      throw new TypeError('Failed to fetch');
    };
    expect(await claimPairing('9615', 'ABCD-EFGH', down)).toMatchObject({ failure: 'NETWORK' });
    expect(await claimPairing('9615', 'ABCD-EFGH', answering(401, ''))).toMatchObject({
      failure: 'UNAUTHORIZED',
    });
    expect(await claimPairing('9615', 'ABCD-EFGH', answering(500, { weird: true }))).toMatchObject({
      failure: 'BAD_ANSWER',
    });
  });
});
