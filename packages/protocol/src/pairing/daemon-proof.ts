/**
 * The daemon proves it is the daemon the extension paired with, before the extension reveals its
 * token or obeys anything: the extension sends a fresh nonce to POST /pair/proof, the daemon answers
 * with a nonce of its own and HMAC-SHA-256(extension token, label ‖ roles ‖ port ‖ both nonces). Only a
 * holder of the token can answer; the extension's nonce makes every proof single-use, the port stops a
 * relay to a daemon listening elsewhere, and the roles stop a MAC made for the other direction from
 * being reflected. The cryptography, shared with the clients' proof (`CLIENT_PROOF_PATH`), is in
 * proof-crypto.ts.
 */
import { z } from 'zod';
import { BproxyErrorResponseSchema } from '../envelope';
import { NONCE_PATTERN, PROOF_PATTERN, base64UrlDecode, base64UrlEncode } from './proof-crypto';
import { WS_AUTH_PREFIX } from '../version';

export * from './proof-crypto';

export const DAEMON_PROOF_PATH = '/pair/proof';

export const ProofChallengeSchema = z.strictObject({
  clientNonce: z.string().regex(NONCE_PATTERN, 'expected 32 random bytes as base64url'),
});
export type ProofChallenge = z.infer<typeof ProofChallengeSchema>;

export const ProofAnswerDataSchema = z.strictObject({
  serverNonce: z.string().regex(NONCE_PATTERN),
  proof: z.string().regex(PROOF_PATTERN),
});
export type ProofAnswerData = z.infer<typeof ProofAnswerDataSchema>;

/** What POST /pair/proof answers: a proof, or a catalogue error (NOT_PAIRED, BAD_REQUEST, …). */
export const ProofAnswerSchema = z.union([
  z.strictObject({ ok: z.literal(true), data: ProofAnswerDataSchema }),
  BproxyErrorResponseSchema,
]);
export type ProofAnswer = z.infer<typeof ProofAnswerSchema>;

/**
 * What POST /client/proof answers: the proof, and the daemon's product version, which a client (the
 * CLI, the MCP server) checks against its own before it sends its token or a request
 * (`daemonVersionProblem` in compatibility.ts).
 */
export const ClientProofAnswerDataSchema = ProofAnswerDataSchema.extend({
  daemonVersion: z.string().min(1).max(80),
});
export const ClientProofAnswerSchema = z.union([
  z.strictObject({ ok: z.literal(true), data: ClientProofAnswerDataSchema }),
  BproxyErrorResponseSchema,
]);
export type ClientProofAnswer = z.infer<typeof ClientProofAnswerSchema>;

/**
 * The seed's WebSocket credential: `auth.` + base64url of the extension token string exactly as
 * /pair/claim returned it. The extension presents it only to a daemon that passed the proof.
 */
export function wsAuthProtocol(extensionToken: string): string {
  return `${WS_AUTH_PREFIX}${base64UrlEncode(new TextEncoder().encode(extensionToken))}`;
}

/** The token inside an `auth.` subprotocol entry, or null when the entry is not one. */
export function tokenFromWsAuthProtocol(entry: string): string | null {
  if (!entry.startsWith(WS_AUTH_PREFIX)) return null;
  const bytes = base64UrlDecode(entry.slice(WS_AUTH_PREFIX.length));
  if (!bytes || bytes.length === 0) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}
