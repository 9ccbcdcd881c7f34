import { z } from 'zod';
import { ActionNameSchema } from './actions';
import { BproxyErrorSchema } from './errors';
import { HumanWaiverSchema } from './human';
import { RawTabIdSchema, RequestIdSchema, SessionIdSchema } from './ids';
import { AGENT_KINDS, AGENT_NAME_MAX } from './request-agent';

/** Who sent the request (request-agent.ts): a label for the browser's activity feed, never trusted. */
export const RequestAgentSchema = z.strictObject({
  kind: z.enum(AGENT_KINDS),
  name: z.string().min(1).max(AGENT_NAME_MAX).optional(),
});

/**
 * What POST / takes. `params` is checked against the action's own schema in a second step (see
 * validate.ts) so that messages name the failing field as `params.<field>`.
 * `deadline` is epoch milliseconds; the daemon converts it to a monotonic timer on receipt.
 */
export const BproxyRequestSchema = z.strictObject({
  id: RequestIdSchema,
  action: ActionNameSchema,
  session: z.string().max(64).optional(),
  params: z.record(z.string(), z.unknown()),
  deadline: z.number().int().positive(),
  agent: RequestAgentSchema.optional(),
});
export type BproxyRequest = z.infer<typeof BproxyRequestSchema>;

/**
 * What a driver receives: the request plus the daemon-owned target. `target` is absent for the two
 * actions that address a browser rather than a tab (tab.open, debug.log); `humanWaiver` is present
 * once a person resumed the session for the page in that tab (see human.ts).
 */
export const BproxyForwardedRequestSchema = BproxyRequestSchema.extend({
  session: SessionIdSchema.optional(),
  target: z.strictObject({ tabId: RawTabIdSchema, humanWaiver: HumanWaiverSchema.optional() }).optional(),
});
export type BproxyForwardedRequest = z.infer<typeof BproxyForwardedRequestSchema>;

export const BproxyOkResponseSchema = z.strictObject({
  id: z.string(),
  ok: z.literal(true),
  data: z.unknown(),
});
export const BproxyErrorResponseSchema = z.strictObject({
  /** null when the failure happened before a request id could be read (gate, unparsable body). */
  id: z.string().nullable(),
  ok: z.literal(false),
  error: BproxyErrorSchema,
});
export const BproxyResponseSchema = z.discriminatedUnion('ok', [
  BproxyOkResponseSchema,
  BproxyErrorResponseSchema,
]);
export type BproxyOkResponse = z.infer<typeof BproxyOkResponseSchema>;
export type BproxyErrorResponse = z.infer<typeof BproxyErrorResponseSchema>;
export type BproxyResponse = z.infer<typeof BproxyResponseSchema>;
