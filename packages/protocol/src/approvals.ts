/**
 * Approvals (issue 25 §2): what the page layer recognises about the target of an acting action, so
 * the daemon can ask a person before a sensitive one runs. The recognition is a seat belt, not a
 * proof: it reads the accessible name of the control and the fields of its form (docs/security.md).
 */
import { z } from 'zod';
import { ActionClassSchema } from './site-policy';

/** The classes the page layer recognises from the element (the others come from the action itself). */
export const PageClassSchema = z.enum(['submit', 'send', 'delete']);
export type PageClass = z.infer<typeof PageClassSchema>;

/** One field of the form the action would submit; a secret field's value is masked. */
export const ApprovalFieldSchema = z.strictObject({
  name: z.string().max(120),
  type: z.string().max(40),
  value: z.string().max(200),
});
export type ApprovalField = z.infer<typeof ApprovalFieldSchema>;

/** The page layer's verdict on a target: its class (absent: nothing sensitive), its name and form. */
export const SensitiveTargetSchema = z.strictObject({
  class: PageClassSchema.optional(),
  /** The control's accessible name, as a person reads it. */
  name: z.string().max(120),
  /** Why it was classed (`name "Pay now"`, `payment fields (cc-number)`). */
  why: z.string().max(200).optional(),
  fields: z.array(ApprovalFieldSchema).max(30),
});
export type SensitiveTarget = z.infer<typeof SensitiveTargetSchema>;

export { APPROVAL_MASK } from './approval-mask';

/** An approval id: minted by the daemon, quoted in APPROVAL_REQUIRED's details and in the panel. */
export const ApprovalIdSchema = z.string().regex(/^ap-[a-z0-9]{1,24}$/);

/** One action held for a person's decision, as the side panel shows it. */
export const PendingApprovalSchema = z.strictObject({
  id: ApprovalIdSchema,
  session: z.string().max(100),
  tab: z.string().max(100),
  /** The action (click, press, upload, state.save, …). */
  action: z.string().max(40),
  class: ActionClassSchema,
  origin: z.string().max(300),
  /** The element's accessible name (empty for an action with no element). */
  name: z.string().max(120),
  why: z.string().max(200).optional(),
  fields: z.array(ApprovalFieldSchema).max(30),
  /** When it was asked (ms since the epoch). */
  at: z.number().int().min(0),
  /** `allowed`: a person allowed it once and the agent's retry has not run yet. */
  state: z.enum(['pending', 'allowed']),
});
export type PendingApproval = z.infer<typeof PendingApprovalSchema>;

export const ApprovalDecisionSchema = z.enum(['allow_once', 'always', 'deny']);
export type ApprovalDecision = z.infer<typeof ApprovalDecisionSchema>;

/** The user channel's answer to `approvals` and `approval_decide`: what waits now. */
export const ApprovalsViewSchema = z.strictObject({
  kind: z.literal('approvals'),
  pending: z.array(PendingApprovalSchema).max(100),
});
export type ApprovalsView = z.infer<typeof ApprovalsViewSchema>;
