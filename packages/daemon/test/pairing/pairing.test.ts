import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_EXTENSION_ID, PROTOCOL_VERSION, PairClaimResponseSchema } from '@bproxy/protocol';
import { FakeExtension, startDaemon, type TestDaemon } from '../harness';
import { PairingCodes } from '../../src/pairing/pairing';

let daemon: TestDaemon;
let consumed = 0;
beforeEach(async () => {
  consumed = 0;
  daemon = await startDaemon({ onPairingConsumed: () => consumed++ });
});
afterEach(() => daemon.close());

const origin = `chrome-extension://${DEFAULT_EXTENSION_ID}`;
async function claim(body: unknown, headers: Record<string, string> = { origin }) {
  const res = await fetch(`http://127.0.0.1:${daemon.port}/pair/claim`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: PairClaimResponseSchema.parse(await res.json()) };
}
const codeOf = (r: Awaited<ReturnType<typeof claim>>) => (r.body.ok ? 'ok' : r.body.error.code);

describe('POST /pair/claim', () => {
  it('trades the code for a fresh extension token, once', async () => {
    const issued = daemon.server.issuePairingCode();
    expect(issued.code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    const first = await claim({ code: issued.code });
    expect(first.status).toBe(200);
    if (!first.body.ok) throw new Error('expected ok');
    expect(first.body.data.wsUrl).toBe(`ws://127.0.0.1:${daemon.port}/ws`);
    expect(first.body.data.protocolVersion).toBe(PROTOCOL_VERSION);
    expect(daemon.extensionToken).toBe(first.body.data.extensionToken);
    expect(consumed).toBe(1);
    const again = await claim({ code: issued.code });
    expect(again.status).toBe(401);
    expect(codeOf(again)).toBe('PAIRING_CODE_CONSUMED');
  });

  it('gives every successful claim a unique nonce', async () => {
    const a = await claim({ code: daemon.server.issuePairingCode().code });
    const b = await claim({ code: daemon.server.issuePairingCode().code });
    expect(a.body.ok && b.body.ok && a.body.data.nonce !== b.body.data.nonce).toBe(true);
  });

  it('refuses unknown codes, bodies with extra fields and missing codes as PAIRING_CODE_INVALID', async () => {
    daemon.server.issuePairingCode();
    expect(codeOf(await claim({ code: 'ZZZZ-ZZZZ' }))).toBe('PAIRING_CODE_INVALID');
    const extra = await claim({ code: 'ZZZZ-ZZZZ', admin: true });
    expect(extra.status).toBe(400);
    expect(codeOf(extra)).toBe('PAIRING_CODE_INVALID');
    expect(codeOf(await claim({}))).toBe('PAIRING_CODE_INVALID');
  });

  it('throttles after 5 failures in 60 s, refusing even the right code', async () => {
    const issued = daemon.server.issuePairingCode();
    for (let i = 0; i < 5; i++)
      expect(codeOf(await claim({ code: 'WRNG-CODE' }))).toBe('PAIRING_CODE_INVALID');
    const right = await claim({ code: issued.code });
    expect(right.status).toBe(429);
    expect(codeOf(right)).toBe('PAIRING_RATE_LIMITED');
    expect(consumed).toBe(0);
  });

  it('counts malformed, oversized and wrong-content-type bodies as failed claims, logged', async () => {
    const issued = daemon.server.issuePairingCode();
    const raw = (body: string, type = 'application/json') =>
      fetch(`http://127.0.0.1:${daemon.port}/pair/claim`, {
        method: 'POST',
        headers: { 'content-type': type, origin },
        body,
      });
    const bad = [
      await raw('{"code":'),
      await raw(JSON.stringify({ code: 'A'.repeat(2_000) })),
      await raw(JSON.stringify({ code: issued.code }), 'text/plain'),
      await raw(''),
      await raw('[]'),
    ];
    for (const res of bad) {
      expect(res.status).toBe(400);
      expect(PairClaimResponseSchema.parse(await res.json())).toEqual({
        ok: false,
        error: { code: 'PAIRING_CODE_INVALID' },
      });
    }
    expect(daemon.logLines.filter((l) => l.includes('"event":"pair_claim_failed"'))).toHaveLength(5);
    const right = await claim({ code: issued.code });
    expect(codeOf(right)).toBe('PAIRING_RATE_LIMITED');
    expect(daemon.logLines.some((l) => l.includes('"event":"pair_claim_rate_limited"'))).toBe(true);
  });

  it('is not burnable by requests the gate refuses, whatever their body', async () => {
    const issued = daemon.server.issuePairingCode();
    for (const body of ['{"code":', 'x'.repeat(5_000), JSON.stringify({ code: 'WRNG-CODE' })]) {
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`http://127.0.0.1:${daemon.port}/pair/claim`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:3000' },
          body,
        });
        expect(res.status).toBe(401);
      }
    }
    expect(daemon.logLines.some((l) => l.includes('pair_claim_failed'))).toBe(false);
    expect(codeOf(await claim({ code: issued.code }))).toBe('ok');
  });

  it('is not burnable by requests the gate refuses', async () => {
    const issued = daemon.server.issuePairingCode();
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`http://127.0.0.1:${daemon.port}/pair/claim`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:3000' },
        body: JSON.stringify({ code: 'WRNG-CODE' }),
      });
      expect(res.status).toBe(401);
    }
    expect(codeOf(await claim({ code: issued.code }))).toBe('ok');
  });

  it('requires the extension Origin', async () => {
    const issued = daemon.server.issuePairingCode();
    const res = await fetch(`http://127.0.0.1:${daemon.port}/pair/claim`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: issued.code }),
    });
    expect(res.status).toBe(401);
    expect(codeOf(await claim({ code: issued.code }))).toBe('ok');
  });

  it('lets exactly one of many concurrent claims of the same code succeed', async () => {
    const issued = daemon.server.issuePairingCode();
    const results = await Promise.all(Array.from({ length: 4 }, () => claim({ code: issued.code })));
    expect(results.filter((r) => r.body.ok)).toHaveLength(1);
  });

  it('closes connections made with the previous token when a new one is claimed', async () => {
    const ext = new FakeExtension(daemon);
    await ext.connect();
    const socket = ext.socket;
    const closed = new Promise<number>((resolve) => socket?.on('close', (code) => resolve(code)));
    await claim({ code: daemon.server.issuePairingCode().code });
    expect(await closed).toBe(4004);
  });

  it('never logs the pairing code or the token', async () => {
    const issued = daemon.server.issuePairingCode();
    await claim({ code: 'WRNG-CODE' });
    const ok = await claim({ code: issued.code });
    const all = daemon.logLines.join('\n');
    expect(all).toContain('pair_claim_failed');
    expect(all).toContain('pair_claim_ok');
    expect(all).not.toContain(issued.code);
    if (ok.body.ok) expect(all).not.toContain(ok.body.data.extensionToken);
  });
});

describe('PairingCodes', () => {
  it('expires a code after 5 minutes on the monotonic clock', () => {
    let mono = 0;
    const codes = new PairingCodes({ now: () => 1_000, monotonic: () => mono });
    const issued = codes.issue();
    mono = 5 * 60_000;
    expect(codes.consume(issued.code)).toEqual({ ok: false, code: 'PAIRING_CODE_EXPIRED' });
  });

  it('retires the previous code when a new one is issued', () => {
    const codes = new PairingCodes({ now: () => 0, monotonic: () => 0 });
    const old = codes.issue();
    const fresh = codes.issue();
    expect(codes.consume(old.code)).toEqual({ ok: false, code: 'PAIRING_CODE_INVALID' });
    expect(codes.consume(fresh.code)).toEqual({ ok: true });
  });
});

describe('pairing.issue', () => {
  it('hands the bearer holder a fresh code that claims like a printed one and retires the previous', async () => {
    const printed = daemon.server.issuePairingCode();
    const answer = await daemon.call('pairing.issue');
    if (!answer.ok) throw new Error(answer.error.message);
    const issued = answer.data as { code: string; expiresAt: number; port: number };
    expect(issued.code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    expect(issued.port).toBe(daemon.port);
    expect(codeOf(await claim({ code: printed.code }))).toBe('PAIRING_CODE_INVALID');
    const claimed = await claim({ code: issued.code });
    expect(claimed.status).toBe(200);
    expect(daemon.logLines.join('\n')).not.toContain(issued.code);
  });

  it('keeps a direct code claimable while strangers hold the throttle shut, and the typed code throttled', async () => {
    // Another local user sends wrong codes, typed-looking and direct-looking, to hold /pair/claim shut.
    for (let i = 0; i < 5; i++)
      expect(codeOf(await claim({ code: 'WRNG-CODE' }))).toBe('PAIRING_CODE_INVALID');
    expect(codeOf(await claim({ code: 'A'.repeat(43) }))).toBe('PAIRING_CODE_INVALID');
    expect(codeOf(await claim({ code: 'STIL-LSHT' }))).toBe('PAIRING_RATE_LIMITED');

    // The native host, holding the daemon token, asks for a direct code: it claims all the same.
    const direct = await daemon.call('pairing.issue', { kind: 'direct' });
    if (!direct.ok) throw new Error(direct.error.message);
    const directCode = (direct.data as { code: string }).code;
    expect(directCode).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const claimed = await claim({ code: directCode });
    expect(claimed.status).toBe(200);
    expect(consumed).toBe(1);
    expect(codeOf(await claim({ code: directCode }))).toBe('PAIRING_CODE_CONSUMED');
    expect(daemon.logLines.join('\n')).not.toContain(directCode);

    // A typed code — what a person types from `bproxy pair` — is still held by the throttle.
    const typed = await daemon.call('pairing.issue', { kind: 'typed' });
    if (!typed.ok) throw new Error(typed.error.message);
    const refused = await claim({ code: (typed.data as { code: string }).code });
    expect(refused.status).toBe(429);
    expect(codeOf(refused)).toBe('PAIRING_RATE_LIMITED');
    expect(consumed).toBe(1);
  });

  it('is refused without the daemon token, like every command', async () => {
    const res = await fetch(`http://127.0.0.1:${daemon.port}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'p1', action: 'pairing.issue', params: {}, deadline: Date.now() + 5_000 }),
    });
    expect(res.status).toBe(401);
  });
});
