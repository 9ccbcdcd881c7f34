/**
 * The extension's half of the daemon proof, against scripted servers: the real daemon's answer passes;
 * a wrong secret, a truncated or replayed proof, a reflected challenge, a proof for another port, a
 * silent port and a non-bproxy answer all fail — and the request itself carries nothing but a nonce.
 */
import { describe, expect, it } from 'vitest';
import { computeProof, freshNonce, type ProofAnswer, type ProofRole } from '@bproxy/protocol';
import { proveDaemon, type FetchLike } from '../../../src/background/daemon/daemon-proof';

const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz012345';
const WS_URL = 'ws://127.0.0.1:9615/ws';

interface Seen {
  url: string;
  body: string;
  headers: Record<string, string>;
}

/** A server that answers each challenge with what `answer` makes of the client's nonce. */
function server(answer: (clientNonce: string) => Promise<{ status: number; body: unknown }>): {
  fetch: FetchLike;
  seen: Seen[];
} {
  const seen: Seen[] = [];
  return {
    seen,
    fetch: async (url, init) => {
      const body = String(init.body);
      seen.push({ url, body, headers: init.headers as Record<string, string> });
      const { clientNonce } = JSON.parse(body) as { clientNonce: string };
      const reply = await answer(clientNonce);
      return new Response(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body), {
        status: reply.status,
      });
    },
  };
}

async function proofAnswer(
  secret: string,
  clientNonce: string,
  over: Partial<{ role: ProofRole; port: number; serverNonce: string }> = {},
): Promise<ProofAnswer> {
  const serverNonce = over.serverNonce ?? freshNonce();
  const proof = await computeProof(secret, {
    role: over.role ?? 'daemon-to-extension',
    port: over.port ?? 9615,
    clientNonce,
    serverNonce,
  });
  return { ok: true, data: { serverNonce, proof } };
}

const daemon = server(async (n) => ({ status: 200, body: await proofAnswer(TOKEN, n) }));

describe('proving the daemon before revealing the token', () => {
  it('accepts the paired daemon, and sends it a fresh nonce and nothing else', async () => {
    expect(await proveDaemon(daemon.fetch, WS_URL, TOKEN, 1_000)).toEqual({ ok: true });
    expect(await proveDaemon(daemon.fetch, WS_URL, TOKEN, 1_000)).toEqual({ ok: true });
    const [a, b] = daemon.seen;
    expect(a?.url).toBe('http://127.0.0.1:9615/pair/proof');
    expect(Object.keys(JSON.parse(a?.body ?? '{}') as object)).toEqual(['clientNonce']);
    expect(a?.body).not.toBe(b?.body);
    const everything = JSON.stringify(daemon.seen);
    expect(everything).not.toContain(TOKEN);
    expect(everything).not.toContain(Buffer.from(TOKEN).toString('base64url'));
  });

  it('refuses a proof made with another secret', async () => {
    const impostor = server(async (n) => ({ status: 200, body: await proofAnswer('x'.repeat(43), n) }));
    const outcome = await proveDaemon(impostor.fetch, WS_URL, TOKEN, 1_000);
    expect(outcome).toMatchObject({ ok: false, kind: 'unproven' });
    expect(outcome.ok ? '' : outcome.message).toMatch(/something else is listening on port 9615/);
  });

  it('refuses a truncated proof', async () => {
    const truncated = server(async (n) => {
      const answer = await proofAnswer(TOKEN, n);
      if (!answer.ok) throw new Error('unreachable');
      return {
        status: 200,
        body: { ok: true, data: { ...answer.data, proof: answer.data.proof.slice(0, 20) } },
      };
    });
    expect(await proveDaemon(truncated.fetch, WS_URL, TOKEN, 1_000)).toMatchObject({
      ok: false,
      kind: 'unproven',
    });
  });

  it('refuses a proof replayed from an earlier connection', async () => {
    let recorded: ProofAnswer | null = null;
    const recorder = server(async (n) => {
      recorded = await proofAnswer(TOKEN, n);
      return { status: 200, body: recorded };
    });
    expect(await proveDaemon(recorder.fetch, WS_URL, TOKEN, 1_000)).toEqual({ ok: true });
    const replayer = server(async () => ({ status: 200, body: recorded }));
    expect(await proveDaemon(replayer.fetch, WS_URL, TOKEN, 1_000)).toMatchObject({
      ok: false,
      kind: 'unproven',
    });
  });

  it('refuses a reflected challenge and a MAC made for the other direction', async () => {
    const echo = server(async (n) => ({
      status: 200,
      body: await proofAnswer(TOKEN, n, { serverNonce: n }),
    }));
    const echoed = await proveDaemon(echo.fetch, WS_URL, TOKEN, 1_000);
    expect(echoed.ok ? '' : echoed.message).toMatch(/echoed our own challenge/);
    const otherRole = server(async (n) => ({
      status: 200,
      body: await proofAnswer(TOKEN, n, { role: 'extension-to-daemon' }),
    }));
    expect(await proveDaemon(otherRole.fetch, WS_URL, TOKEN, 1_000)).toMatchObject({
      ok: false,
      kind: 'unproven',
    });
  });

  it('refuses a proof relayed from a daemon on another port', async () => {
    const relay = server(async (n) => ({ status: 200, body: await proofAnswer(TOKEN, n, { port: 9616 }) }));
    expect(await proveDaemon(relay.fetch, WS_URL, TOKEN, 1_000)).toMatchObject({
      ok: false,
      kind: 'unproven',
    });
  });

  it('tells a server that is not bproxy, a reset daemon and a closed port apart', async () => {
    const web = server(async () => ({ status: 404, body: '<html>not found</html>' }));
    expect(await proveDaemon(web.fetch, WS_URL, TOKEN, 1_000)).toMatchObject({ ok: false, kind: 'unproven' });
    const reset = server(async () => ({
      status: 409,
      body: {
        id: null,
        ok: false,
        error: { code: 'NOT_PAIRED', category: 'auth', retry: false, message: 'no pairing' },
      },
    }));
    expect(await proveDaemon(reset.fetch, WS_URL, TOKEN, 1_000)).toMatchObject({
      ok: false,
      kind: 'unpaired',
    });
    const closed: FetchLike = async () => {
      throw new TypeError('fetch failed');
    };
    expect(await proveDaemon(closed, WS_URL, TOKEN, 1_000)).toMatchObject({ ok: false, kind: 'unreachable' });
  });

  it('gives up on a server that never answers', async () => {
    const silent: FetchLike = (_url, init) =>
      new Promise((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(new DOMException('timed out', 'TimeoutError')));
      });
    expect(await proveDaemon(silent, WS_URL, TOKEN, 50)).toMatchObject({ ok: false, kind: 'unreachable' });
  });
});
