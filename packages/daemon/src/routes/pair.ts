/**
 * POST /pair/claim — the popup trades the one-time code for the single active extension token.
 * Host/Origin/Sec-Fetch-Site ran at onRequest; the code is this route's secret. Failures use the
 * pairing route's own envelope `{ ok: false, error: { code } }` and feed the global throttle.
 */
import {
  PAIRING_TTL_MS,
  PROTOCOL_VERSION,
  PairClaimRequestSchema,
  type PairClaimResponse,
  type PairingErrorCode,
} from '@bproxy/protocol';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Logger } from '../logger';
import { generateExtensionToken, type PairingCodes } from '../pairing';
import type { PairingRateLimit } from '../pairing-rate-limit';
import type { ExtensionTokenStore } from '../server-options';

export interface PairRouteDeps {
  codes: PairingCodes;
  limiter: PairingRateLimit;
  tokens: ExtensionTokenStore;
  logger: Logger;
  clock: { now(): number };
  port(): number;
  /** The token changed: close every connection made with the old one. */
  onTokenRotated(): void;
  onPairingConsumed?: () => void;
}

const STATUS: Record<PairingErrorCode, number> = {
  PAIRING_CODE_INVALID: 401,
  PAIRING_CODE_EXPIRED: 401,
  PAIRING_CODE_CONSUMED: 401,
  PAIRING_RATE_LIMITED: 429,
};

function refuse(reply: FastifyReply, code: PairingErrorCode, status = STATUS[code]): FastifyReply {
  const body: PairClaimResponse = { ok: false, error: { code } };
  return reply.code(status).send(body);
}

export function registerPairRoute(app: FastifyInstance, deps: PairRouteDeps): void {
  app.post('/pair/claim', { bodyLimit: 1024 }, async (req, reply) => {
    if (deps.limiter.isLimited()) {
      deps.logger.warn({ event: 'pair_claim_rate_limited' });
      return refuse(reply, 'PAIRING_RATE_LIMITED');
    }
    const parsed = PairClaimRequestSchema.safeParse(req.body);
    if (!parsed.success) {
      deps.limiter.recordFailure();
      deps.logger.warn({ event: 'pair_claim_failed', code: 'PAIRING_CODE_INVALID' });
      return refuse(reply, 'PAIRING_CODE_INVALID', 400);
    }
    const claimed = deps.codes.consume(parsed.data.code);
    if (!claimed.ok) {
      deps.limiter.recordFailure();
      deps.logger.warn({ event: 'pair_claim_failed', code: claimed.code });
      return refuse(reply, claimed.code);
    }
    const token = generateExtensionToken();
    await deps.tokens.set(token);
    deps.onTokenRotated();
    deps.onPairingConsumed?.();
    deps.logger.info({ event: 'pair_claim_ok' });
    const issuedAt = deps.clock.now();
    const body: PairClaimResponse = {
      ok: true,
      data: {
        extensionToken: token,
        wsUrl: `ws://127.0.0.1:${deps.port()}/ws`,
        protocolVersion: PROTOCOL_VERSION,
        issuedAt,
        expiresAt: issuedAt + PAIRING_TTL_MS,
        nonce: deps.codes.nonce(),
      },
    };
    return reply.code(200).send(body);
  });
}
