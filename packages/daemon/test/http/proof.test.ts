/**
 * POST /pair/proof: the daemon's answer to the extension's challenge. The proof must verify with the
 * extension token for exactly this port and these nonces, be fresh for every challenge, say nothing
 * when the daemon is unpaired, and stay behind the gate like /pair/claim. POST /client/proof: the same
 * for the clients (CLI, MCP server, agent), keyed with the daemon token and asked without any secret.
 */
import { request as httpRequest } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_EXTENSION_ID,
  ProofAnswerSchema,
  ClientProofAnswerSchema,
  freshNonce,
  verifyProof,
  BPROXY_VERSION,
  type ClientProofAnswer,
  type ProofAnswer,
} from '@bproxy/protocol';
import { startDaemon, type TestDaemon } from '../harness';

let daemon: TestDaemon;
let unpaired = false;
const token = 'x'.repeat(43);
beforeEach(async () => {
  unpaired = false;
  daemon = await startDaemon({
    extensionTokens: {
      get: () => (unpaired ? null : token),
      set: async () => undefined,
    },
  });
});
afterEach(() => daemon.close());

const origin = `chrome-extension://${DEFAULT_EXTENSION_ID}`;
/** A raw HTTP POST (fetch would not let the test set Host). */
function challenge(
  body: unknown,
  headers: Record<string, string> = { origin },
  path = '/pair/proof',
): Promise<{ status: number; body: ProofAnswer | ClientProofAnswer | null }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: daemon.port,
        method: 'POST',
        path,
        agent: false,
        headers: {
          host: `127.0.0.1:${daemon.port}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => {
          // /client/proof also names the daemon's version (ClientProofAnswerSchema), /pair/proof does not.
          const schema = path === '/pair/proof' ? ProofAnswerSchema : ClientProofAnswerSchema;
          const parsed = schema.safeParse(JSON.parse(text));
          resolve({ status: res.statusCode ?? 0, body: parsed.success ? parsed.data : null });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('POST /pair/proof', () => {
  it('answers a fresh nonce with a proof that verifies for this port and those nonces only', async () => {
    const clientNonce = freshNonce();
    const res = await challenge({ clientNonce });
    expect(res.status).toBe(200);
    if (!res.body?.ok) throw new Error('expected a proof');
    const { serverNonce, proof } = res.body.data;
    const input = { role: 'daemon-to-extension' as const, port: daemon.port, clientNonce, serverNonce };
    expect(await verifyProof(token, input, proof)).toEqual({ ok: true });
    expect((await verifyProof('y'.repeat(43), input, proof)).ok).toBe(false);
    expect((await verifyProof(token, { ...input, port: daemon.port + 1 }, proof)).ok).toBe(false);
    expect((await verifyProof(token, { ...input, clientNonce: freshNonce() }, proof)).ok).toBe(false);
    expect((await verifyProof(token, { ...input, role: 'extension-to-daemon' }, proof)).ok).toBe(false);
  });

  it('never answers two challenges with the same server nonce', async () => {
    const clientNonce = freshNonce();
    const a = await challenge({ clientNonce });
    const b = await challenge({ clientNonce });
    if (!a.body?.ok || !b.body?.ok) throw new Error('expected proofs');
    expect(a.body.data.serverNonce).not.toBe(b.body.data.serverNonce);
    expect(a.body.data.proof).not.toBe(b.body.data.proof);
  });

  it('says NOT_PAIRED, with no proof, when the daemon has no active pairing', async () => {
    unpaired = true;
    const res = await challenge({ clientNonce: freshNonce() });
    expect(res.status).toBe(409);
    expect(res.body?.ok === false && res.body.error.code).toBe('NOT_PAIRED');
  });

  it.each([
    ['a short nonce', { clientNonce: 'abc' }],
    ['an extra field', { clientNonce: freshNonce(), token: 'x' }],
    ['no nonce', {}],
  ])('refuses %s as BAD_REQUEST', async (_name, body) => {
    const res = await challenge(body);
    expect(res.status).toBe(400);
    expect(res.body?.ok === false && res.body.error.code).toBe('BAD_REQUEST');
  });

  it.each([
    ['no Origin', {}],
    ['a web page Origin', { origin: 'http://127.0.0.1:5173' }],
    ['another extension', { origin: 'chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' }],
    ['a rebinding Host', { origin, host: 'evil.example' }],
  ])('refuses %s at the gate with a bare 401', async (_name, headers) => {
    const res = await challenge({ clientNonce: freshNonce() }, headers);
    expect(res.status).toBe(401);
    expect(res.body?.ok === false && res.body.error.code).toBe('UNAUTHORIZED');
  });

  it('never logs the proof, the nonces or the token', async () => {
    const clientNonce = freshNonce();
    const res = await challenge({ clientNonce });
    if (!res.body?.ok) throw new Error('expected a proof');
    const log = daemon.logLines.join('\n');
    for (const secret of [token, clientNonce, res.body.data.serverNonce, res.body.data.proof])
      expect(log).not.toContain(secret);
  });
});

describe('POST /pair/proof across a new pairing', () => {
  it('proves with the new token only, once a new pairing rotated it', async () => {
    const d = await startDaemon();
    try {
      const before = d.extensionToken;
      const claim = await fetch(`http://127.0.0.1:${d.port}/pair/claim`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify({ code: d.server.issuePairingCode().code }),
      });
      expect(claim.status).toBe(200);
      expect(d.extensionToken).not.toBe(before);
      const clientNonce = freshNonce();
      const res = await fetch(`http://127.0.0.1:${d.port}/pair/proof`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify({ clientNonce }),
      });
      const answer = ProofAnswerSchema.parse(await res.json());
      if (!answer.ok) throw new Error('expected a proof');
      const input = { role: 'daemon-to-extension' as const, port: d.port, clientNonce, ...answer.data };
      expect(await verifyProof(d.extensionToken, input, answer.data.proof)).toEqual({ ok: true });
      expect((await verifyProof(before, input, answer.data.proof)).ok).toBe(false);
    } finally {
      await d.close();
    }
  });
});

describe('POST /client/proof', () => {
  const ask = (body: unknown, headers: Record<string, string> = {}) =>
    challenge(body, headers, '/client/proof');

  it('answers a bare challenge, without a bearer, with a proof keyed by the daemon token for this port and those nonces only', async () => {
    const clientNonce = freshNonce();
    const res = await ask({ clientNonce });
    expect(res.status).toBe(200);
    if (!res.body?.ok) throw new Error('expected a proof');
    const { serverNonce, proof } = res.body.data;
    // The daemon's version beside the proof, which the client checks before it sends anything.
    expect(res.body.data).toMatchObject({ daemonVersion: BPROXY_VERSION });
    const input = { role: 'daemon-to-client' as const, port: daemon.port, clientNonce, serverNonce };
    expect(await verifyProof(daemon.token, input, proof)).toEqual({ ok: true });
    // Not the extension token, not for another port, nonce or direction.
    expect((await verifyProof(token, input, proof)).ok).toBe(false);
    expect((await verifyProof(daemon.token, { ...input, port: daemon.port + 1 }, proof)).ok).toBe(false);
    expect((await verifyProof(daemon.token, { ...input, clientNonce: freshNonce() }, proof)).ok).toBe(false);
    expect((await verifyProof(daemon.token, { ...input, role: 'daemon-to-extension' }, proof)).ok).toBe(
      false,
    );
    const again = await ask({ clientNonce });
    expect(again.body?.ok && again.body.data.serverNonce).not.toBe(serverNonce);
  });

  it.each([
    ['the extension Origin', { origin }],
    ['a web page Origin', { origin: 'http://127.0.0.1:5173' }],
    ['fetch metadata of a page', { 'sec-fetch-site': 'same-site' }],
    ['a rebinding Host', { host: 'evil.example' }],
  ])('refuses %s at the gate with a bare 401', async (_name, headers) => {
    const res = await ask({ clientNonce: freshNonce() }, headers);
    expect(res.status).toBe(401);
  });

  it('refuses a malformed challenge as BAD_REQUEST and logs no proof, nonce or token', async () => {
    const bad = await ask({ clientNonce: 'abc' });
    expect(bad.status).toBe(400);
    expect(bad.body?.ok === false && bad.body.error.code).toBe('BAD_REQUEST');
    const clientNonce = freshNonce();
    const res = await ask({ clientNonce });
    if (!res.body?.ok) throw new Error('expected a proof');
    const log = daemon.logLines.join('\n');
    for (const secret of [daemon.token, clientNonce, res.body.data.serverNonce, res.body.data.proof])
      expect(log).not.toContain(secret);
  });
});
