/**
 * POST /pair/claim — the popup trades the one-time code for the single active extension token.
 * Host/Origin/Sec-Fetch-Site ran at onRequest; the code is this route's secret. Failures use the
 * pairing route's own envelope `{ ok: false, error: { code } }` and feed the global throttle — a body
 * that cannot be read included. While the throttle is shut it refuses every claim of a typed code (its
 * 26⁸ space must not be searched), but not a claim of a direct code (32 random bytes, issued only to a
 * holder of the daemon token): zero-touch pairing cannot be locked out by strangers' wrong codes.
 */
import {
  PAIRING_TTL_MS,
  PROTOCOL_VERSION,
  PAIRING_DIRECT_CODE_PATTERN,
  PairClaimRequestSchema,
  type PairClaimResponse,
  type PairingErrorCode,
} from '@bproxy/protocol';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import type { Logger } from '../logs/logger';
import { generateExtensionToken, type PairingCodes } from '../pairing/pairing';
import type { PairingRateLimit } from '../pairing/pairing-rate-limit';
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

/** A claim that failed after the gate passed: it feeds the throttle and is logged, whatever was wrong. */
function failClaim(
  deps: PairRouteDeps,
  reply: FastifyReply,
  code: PairingErrorCode,
  status = STATUS[code],
): FastifyReply {
  deps.limiter.recordFailure();
  deps.logger.warn({ event: 'pair_claim_failed', code });
  return refuse(reply, code, status);
}

function rateLimited(deps: PairRouteDeps, reply: FastifyReply): FastifyReply | null {
  if (!deps.limiter.isLimited()) return null;
  deps.logger.warn({ event: 'pair_claim_rate_limited' });
  return refuse(reply, 'PAIRING_RATE_LIMITED');
}

export function registerPairRoute(app: FastifyInstance, deps: PairRouteDeps): void {
  app.post(
    '/pair/claim',
    {
      bodyLimit: 1024,
      // A body Fastify could not read (not JSON, too large, another content type) is a failed claim
      // like a wrong code: every failure past the gate counts, so no kind of request probes the route
      // without the throttle seeing it. The gate ran at onRequest: what it refused never gets here.
      errorHandler: (err: FastifyError, _req, reply) => {
        if (err.statusCode === undefined || err.statusCode >= 500) {
          deps.logger.error({ event: 'internal_error', url: '/pair/claim', err: err.stack });
          void refuse(reply, 'PAIRING_CODE_INVALID', 500);
          return;
        }
        if (!rateLimited(deps, reply)) void failClaim(deps, reply, 'PAIRING_CODE_INVALID', 400);
      },
    },
    async (req, reply) => {
      const parsed = PairClaimRequestSchema.safeParse(req.body);
      const direct = parsed.success && PAIRING_DIRECT_CODE_PATTERN.test(parsed.data.code);
      if (!direct) {
        const limited = rateLimited(deps, reply);
        if (limited) return limited;
      }
      if (!parsed.success) return failClaim(deps, reply, 'PAIRING_CODE_INVALID', 400);
      const claimed = deps.codes.consume(parsed.data.code);
      if (!claimed.ok) return failClaim(deps, reply, claimed.code);
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
    },
  );
}
