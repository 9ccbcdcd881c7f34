/**
 * The extension's side of the daemon proof: before the worker opens /ws (which reveals the extension
 * token in Sec-WebSocket-Protocol) it asks the server on the paired port to prove it holds that token
 * (POST /pair/proof with a fresh nonce, see @bproxy/protocol daemon-proof). Whatever listens on the
 * port while the real daemon is down gets a random nonce and nothing else: no token, nothing derived
 * from it, no chance to send a request. This module decides; connection.ts acts on the verdict.
 */
import { DAEMON_PROOF_PATH, ProofAnswerSchema, freshNonce, verifyProof } from '@bproxy/protocol';
import { UNREACHABLE } from '../../common/messages';

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export type ProofOutcome =
  | { ok: true }
  /** Nobody answered: the daemon is down. */
  | { ok: false; kind: 'unreachable'; message: string }
  /** The daemon is there and says it has no pairing (its state was reset). */
  | { ok: false; kind: 'unpaired'; message: string }
  /** Something answered and could not prove it holds our token. */
  | { ok: false; kind: 'unproven'; message: string };

/** The port the extension dials for a ws://host:port/ws URL (the MAC binds it). */
export function portOfWsUrl(wsUrl: string): number {
  const url = new URL(wsUrl);
  return url.port === '' ? 80 : Number(url.port);
}

function unproven(port: number, why: string): ProofOutcome {
  return {
    ok: false,
    kind: 'unproven',
    message:
      `something else is listening on port ${port}: it could not prove it is the bproxy daemon this ` +
      `browser paired with (${why}). If you paired bproxy again elsewhere, pair this browser again.`,
  };
}

export async function proveDaemon(
  fetchImpl: FetchLike,
  wsUrl: string,
  extensionToken: string,
  timeoutMs: number,
): Promise<ProofOutcome> {
  const port = portOfWsUrl(wsUrl);
  const endpoint = `http://${new URL(wsUrl).host}${DAEMON_PROOF_PATH}`;
  const clientNonce = freshNonce();
  let response: Response;
  try {
    response = await fetchImpl(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientNonce }),
      cache: 'no-store',
      credentials: 'omit',
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch {
    return { ok: false, kind: 'unreachable', message: UNREACHABLE };
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return unproven(port, `it answered HTTP ${response.status} without a proof`);
  }
  const answer = ProofAnswerSchema.safeParse(body);
  if (!answer.success) return unproven(port, 'its answer is not a bproxy proof');
  if (!answer.data.ok) {
    if (answer.data.error.code === 'NOT_PAIRED') {
      return {
        ok: false,
        kind: 'unpaired',
        message: `the bproxy daemon on port ${port} has no pairing (its state was reset): pair this browser again`,
      };
    }
    return unproven(port, `it answered ${answer.data.error.code}`);
  }
  const { serverNonce, proof } = answer.data.data;
  const verdict = await verifyProof(
    extensionToken,
    { role: 'daemon-to-extension', port, clientNonce, serverNonce },
    proof,
  );
  if (verdict.ok) return { ok: true };
  const why = {
    malformed: 'its proof is malformed',
    reflected: 'it echoed our own challenge',
    mismatch: 'its proof does not match our pairing',
  }[verdict.reason];
  return unproven(port, why);
}
