import { z } from 'zod';

/**
 * The pairing route's own contract (popup ↔ daemon). Its failures use a simplified envelope with a code
 * only, and these codes are deliberately not part of the ErrorCode catalogue.
 */
export const PAIRING_CODE_PATTERN = /^[A-Z]{4}-[A-Z]{4}$/;
/**
 * A direct pairing code: 32 random bytes, base64url. Issued only through the authenticated
 * `pairing.issue` (`kind: "direct"`) to a holder of the daemon token — the native host — and passed to
 * the extension over the native port, never typed. It cannot be guessed, so the failed-claim throttle,
 * which protects the typed code's small space, does not hold it: strangers cannot lock zero-touch
 * pairing out.
 */
export const PAIRING_DIRECT_CODE_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const PAIRING_CODE_KINDS = ['typed', 'direct'] as const;
export type PairingCodeKind = (typeof PAIRING_CODE_KINDS)[number];
export const PAIRING_TTL_MS = 5 * 60_000;

export const PairClaimRequestSchema = z.strictObject({ code: z.string().max(64) });
export type PairClaimRequest = z.infer<typeof PairClaimRequestSchema>;

export const PairBootstrapSchema = z.strictObject({
  extensionToken: z.string(),
  wsUrl: z.string(),
  protocolVersion: z.number().int(),
  issuedAt: z.number(),
  expiresAt: z.number(),
  nonce: z.string(),
});
export type PairBootstrap = z.infer<typeof PairBootstrapSchema>;

export const PAIRING_ERROR_CODES = [
  'PAIRING_CODE_INVALID',
  'PAIRING_CODE_EXPIRED',
  'PAIRING_CODE_CONSUMED',
  'PAIRING_RATE_LIMITED',
] as const;
export type PairingErrorCode = (typeof PAIRING_ERROR_CODES)[number];

export const PairClaimResponseSchema = z.discriminatedUnion('ok', [
  z.strictObject({ ok: z.literal(true), data: PairBootstrapSchema }),
  z.strictObject({ ok: z.literal(false), error: z.strictObject({ code: z.enum(PAIRING_ERROR_CODES) }) }),
]);
export type PairClaimResponse = z.infer<typeof PairClaimResponseSchema>;
