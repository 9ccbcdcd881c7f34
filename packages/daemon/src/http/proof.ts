/**
 * POST /pair/proof — the daemon proves to the extension that it holds the extension token the
 * extension paired with, before the extension reveals that token on the /ws upgrade. The extension
 * sends a fresh nonce; the answer is a nonce of ours and an HMAC over both, the roles and the port we
 * are bound to (see @bproxy/protocol daemon-proof). Host, Origin and Sec-Fetch-Site ran at onRequest.
 * The route keeps no state: a proof is worth nothing for any other client nonce.
 */
import {
  CLIENT_PROOF_PATH,
  DAEMON_PROOF_PATH,
  ProofChallengeSchema,
  computeProof,
  formatIssues,
  freshNonce,
  makeError,
  BPROXY_VERSION,
  type ClientProofAnswer,
  type ProofAnswer,
} from '@bproxy/protocol';
import type { FastifyInstance } from 'fastify';
import type { Logger } from '../logs/logger';
import type { ExtensionTokenStore } from '../server-options';
import { errorResponse } from './responses';

export interface ProofRouteDeps {
  tokens: ExtensionTokenStore;
  logger: Logger;
  port(): number;
}

export function registerProofRoute(app: FastifyInstance, deps: ProofRouteDeps): void {
  app.post(DAEMON_PROOF_PATH, { bodyLimit: 512 }, async (req, reply) => {
    const parsed = ProofChallengeSchema.safeParse(req.body);
    if (!parsed.success) {
      const error = makeError('BAD_REQUEST', formatIssues(parsed.error, req.body));
      return reply.code(400).send(errorResponse(null, error));
    }
    const token = deps.tokens.get();
    if (token === null) {
      deps.logger.info({ event: 'pair_proof_unpaired' });
      const error = makeError('NOT_PAIRED', 'this daemon has no active pairing');
      return reply.code(409).send(errorResponse(null, error));
    }
    const serverNonce = freshNonce();
    const proof = await computeProof(token, {
      role: 'daemon-to-extension',
      port: deps.port(),
      clientNonce: parsed.data.clientNonce,
      serverNonce,
    });
    deps.logger.debug({ event: 'pair_proof' });
    const body: ProofAnswer = { ok: true, data: { serverNonce, proof } };
    return reply.code(200).send(body);
  });
}

export interface ClientProofRouteDeps {
  daemonToken: string;
  logger: Logger;
  port(): number;
}

/**
 * POST /client/proof — the daemon proves to a client (CLI, MCP server, agent) that it holds the daemon
 * token of its BPROXY_HOME, before the client sends that token or a request on a new connection. Same
 * exchange as /pair/proof, keyed with the daemon token and labelled `daemon-to-client`, so a proof
 * made for the extension never passes here and the reverse. Stateless, like /pair/proof. The answer
 * also names the daemon's product version, which the client checks (VERSION_MISMATCH).
 */
export function registerClientProofRoute(app: FastifyInstance, deps: ClientProofRouteDeps): void {
  app.post(CLIENT_PROOF_PATH, { bodyLimit: 512 }, async (req, reply) => {
    const parsed = ProofChallengeSchema.safeParse(req.body);
    if (!parsed.success) {
      const error = makeError('BAD_REQUEST', formatIssues(parsed.error, req.body));
      return reply.code(400).send(errorResponse(null, error));
    }
    const serverNonce = freshNonce();
    const proof = await computeProof(deps.daemonToken, {
      role: 'daemon-to-client',
      port: deps.port(),
      clientNonce: parsed.data.clientNonce,
      serverNonce,
    });
    deps.logger.debug({ event: 'client_proof' });
    // The daemon's version beside the proof: the client refuses a daemon it does not work with.
    const body: ClientProofAnswer = { ok: true, data: { serverNonce, proof, daemonVersion: BPROXY_VERSION } };
    return reply.code(200).send(body);
  });
}
