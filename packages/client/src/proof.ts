/**
 * The daemon proves itself before a client reveals anything. Loopback is shared: while the daemon of
 * BPROXY_HOME is stopped (an implicit daemon stops itself when idle), any local process — another
 * user's included — may bind its port, and a long-lived client that remembered the port would hand it
 * the bearer token and the request (a typed password, say) and take its forged answer. So on every new
 * connection the client first sends a fresh nonce to POST /client/proof, with no token and no request,
 * and goes on only when the answer is HMAC-SHA-256(daemon token, "daemon-to-client" ‖ port ‖ both
 * nonces): only a holder of the token in BPROXY_HOME can make it. The cryptography is the extension's
 * (`@bproxy/protocol/plain`, proof-crypto.ts). The proof's answer also names the daemon's version: a
 * daemon this client does not work with (compatibility.ts) is refused before anything is sent to it,
 * with a message that says which part is old and the command that fixes it — never a half-working state.
 */
import {
  BPROXY_VERSION,
  CLIENT_PROOF_PATH,
  daemonVersionProblem,
  freshNonce,
  verifyProof,
} from '@bproxy/protocol/plain';
import { TransportError, type HttpReply, type HttpTarget } from './http';

export { CLIENT_PROOF_PATH };

/** An answer to the proof larger than this is not the daemon's. */
export const PROOF_REPLY_LIMIT = 4096;

export interface ProofChallenge {
  readonly clientNonce: string;
  /** The body to POST: the nonce and nothing else. */
  readonly body: string;
}

export function proofChallenge(): ProofChallenge {
  const clientNonce = freshNonce();
  return { clientNonce, body: JSON.stringify({ clientNonce }) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

type Verdict =
  | { readonly proven: false; readonly problem: string }
  | { readonly proven: true; readonly daemonVersion: string | null };

async function verdictOf(reply: HttpReply, target: HttpTarget, clientNonce: string): Promise<Verdict> {
  const problem = await problemWith(reply, target, clientNonce);
  if (problem !== null) return { proven: false, problem };
  const answer = JSON.parse(reply.body) as { data: Record<string, unknown> };
  const version = answer.data.daemonVersion;
  return { proven: true, daemonVersion: typeof version === 'string' && version !== '' ? version : null };
}

async function problemWith(
  reply: HttpReply,
  target: HttpTarget,
  clientNonce: string,
): Promise<string | null> {
  if (reply.status !== 200) return `it answered the proof with HTTP ${reply.status}`;
  let answer: unknown;
  try {
    answer = JSON.parse(reply.body);
  } catch {
    return 'its answer to the proof is not JSON';
  }
  const data = isRecord(answer) && answer.ok === true && isRecord(answer.data) ? answer.data : null;
  const serverNonce = data?.serverNonce;
  const proof = data?.proof;
  if (typeof serverNonce !== 'string' || typeof proof !== 'string') return 'its answer is not a proof';
  const verdict = await verifyProof(
    target.token,
    { role: 'daemon-to-client', port: target.port, clientNonce, serverNonce },
    proof,
  );
  return verdict.ok ? null : `its proof does not hold (${verdict.reason})`;
}

/**
 * Resolves when `reply` proves the daemon of `target` and that daemon works with this client; rejects
 * with TransportError `not-proven`, or `version-mismatch`.
 */
export async function checkProof(
  reply: HttpReply,
  target: HttpTarget,
  clientNonce: string,
  clientVersion: string = BPROXY_VERSION,
): Promise<void> {
  const verdict = await verdictOf(reply, target, clientNonce);
  if (!verdict.proven)
    throw new TransportError(
      'not-proven',
      `what listens on port ${target.port} cannot prove it is the daemon of this BPROXY_HOME: ${verdict.problem}`,
    );
  const skew = daemonVersionProblem(verdict.daemonVersion, clientVersion);
  if (skew !== null) throw new TransportError('version-mismatch', skew, verdict.daemonVersion);
}
