/**
 * The site policy: BPROXY_HOME/policy.json, a setting only a person writes (by hand, or in the
 * extension's Policy view through its authenticated user channel). Per-origin rules — allow, deny,
 * ask — and a default for origins no rule names; the daemon decides every agent's navigation by it.
 *
 * The format is versioned and leaves room for approvals (classes of sensitive actions, each with a
 * default, and per-origin "Always on this site" decisions): those fields are read and kept today, and
 * a later daemon acts on them without a format change.
 */
import { z } from 'zod';

/** What a rule says about an origin (or an action class there). */
export const PolicyDecisionSchema = z.enum(['allow', 'deny', 'ask']);
export type PolicyDecision = z.infer<typeof PolicyDecisionSchema>;

/** The classes of sensitive actions approvals will gate (issue 25 §2); stored, not yet enforced. */
export const ActionClassSchema = z.enum([
  'submit',
  'send',
  'delete',
  'upload',
  'download',
  'state_export',
  'first_visit',
]);
export type ActionClass = z.infer<typeof ActionClassSchema>;

const ClassDecisions = z.partialRecord(ActionClassSchema, PolicyDecisionSchema);

/**
 * A rule's key: an origin (`https://bank.example`, `http://127.0.0.1:8080`), or one whose host starts
 * with `*.` (`https://*.example.com`: that host's subdomains, not the host itself). Lowercase, no path.
 */
export const ORIGIN_PATTERN =
  /^https?:\/\/(\*\.)?[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:\d{1,5})?$|^https?:\/\/\[[0-9a-f:.]+\](:\d{1,5})?$/;
export const PolicyOriginSchema = z
  .string()
  .max(300)
  .regex(ORIGIN_PATTERN, 'an origin like https://example.com');

export const OriginRuleSchema = z.strictObject({
  /** The origin's rule; absent: the default decides, and only `classes` are set here. */
  rule: PolicyDecisionSchema.optional(),
  /** Approvals' per-origin decisions ("Always on this site"), by class. */
  classes: ClassDecisions.optional(),
  /** When a person last changed this entry (ms since the epoch), shown in the Policy view. */
  updatedAt: z.number().int().min(0).optional(),
});
export type OriginRule = z.infer<typeof OriginRuleSchema>;

/** Most origins one policy names. */
export const POLICY_MAX_ORIGINS = 500;

export const SitePolicySchema = z.strictObject({
  version: z.literal(1),
  /** The rule for an origin no entry names. */
  default: PolicyDecisionSchema,
  origins: z
    .record(PolicyOriginSchema, OriginRuleSchema)
    .refine((o) => Object.keys(o).length <= POLICY_MAX_ORIGINS, `at most ${POLICY_MAX_ORIGINS} origins`),
  /** Approvals' defaults per action class. */
  classes: ClassDecisions.optional(),
  /**
   * Whether an agent may open its tab in front of the user's (`tab open --foreground`, `active: true`):
   * "deny" answers such a request POLICY_DENIED and opens nothing. Absent: allowed. Agents' tabs open in
   * the background by default either way.
   */
  foreground: z.enum(['allow', 'deny']).optional(),
});
export type SitePolicy = z.infer<typeof SitePolicySchema>;

/** The policy when there is no policy.json: every origin allowed, nothing named. */
export const DEFAULT_SITE_POLICY: SitePolicy = { version: 1, default: 'allow', origins: {} };

/** The file's name in BPROXY_HOME. */
export const POLICY_FILE = 'policy.json';

/** One decision: what applies to `origin` and which rule said so (`default`, or the matching key). */
export interface PolicyVerdict {
  readonly origin: string;
  readonly decision: PolicyDecision;
  readonly rule: string;
}

/** The origin of a URL the policy judges (http: and https: only), or null (about:blank, file:, …). */
export function policyOrigin(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  return parsed.origin.toLowerCase();
}

/**
 * What the policy says of `url`: null for a URL no origin rule can name (about:blank and the like, which
 * the URL check judges). The exact origin's rule first, then the longest `*.` pattern that covers its
 * host (same scheme and port), then the default.
 */
export function decideUrl(policy: SitePolicy, url: string): PolicyVerdict | null {
  const origin = policyOrigin(url);
  if (origin === null) return null;
  const exact = policy.origins[origin]?.rule;
  if (exact !== undefined) return { origin, decision: exact, rule: origin };
  const parsed = new URL(origin);
  const port = parsed.port === '' ? '' : `:${parsed.port}`;
  const labels = parsed.hostname.split('.');
  for (let i = 1; i < labels.length; i++) {
    const key = `${parsed.protocol}//*.${labels.slice(i).join('.')}${port}`;
    const rule = policy.origins[key]?.rule;
    if (rule !== undefined) return { origin, decision: rule, rule: key };
  }
  return { origin, decision: policy.default, rule: 'default' };
}

/** One refusal the daemon made by the policy, for the person's Policy view ("decisions taken"). */
export const PolicyRefusalSchema = z.strictObject({
  at: z.number().int().min(0),
  origin: z.string().max(300),
  rule: z.string().max(400),
  session: z.string().max(64),
  /** navigate: refused before it was sent; landed: the tab got there on its own and its session paused. */
  how: z.enum(['navigate', 'landed']),
});
export type PolicyRefusal = z.infer<typeof PolicyRefusalSchema>;

/** The Policy view's answer: the policy in force (null when policy.json is unusable, with why) and the refusals. */
export const PolicyViewSchema = z.strictObject({
  kind: z.literal('policy'),
  policy: SitePolicySchema.nullable(),
  broken: z.string().max(1000).optional(),
  refusals: z.array(PolicyRefusalSchema).max(50),
});
export type PolicyView = z.infer<typeof PolicyViewSchema>;
