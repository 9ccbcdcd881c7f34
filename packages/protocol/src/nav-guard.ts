/**
 * The site policy in the browser: the daemon tells each driver the policy in force (`nav_guard`), and the driver stops those tabs' top-level navigations — and the
 * first navigation of a tab their pages open — to an origin the policy refuses before any request is
 * sent there. It tells the daemon what it stopped (`navigation_blocked`), which answers the action
 * POLICY_DENIED or pauses the session with the reason.
 */
import { z } from 'zod';
import { RawTabIdSchema } from './ids';
import { SitePolicySchema, decideUrl, type SitePolicy } from './site-policy';

/**
 * Daemon → driver, after the welcome and whenever it changed: the policy in force (null: unusable, every
 * origin refused). The driver guards the tabs it drives — all of them are sessions' tabs — and the tabs
 * their pages open.
 */
export const NavGuardMessageSchema = z.strictObject({
  type: z.literal('nav_guard'),
  policy: SitePolicySchema.nullable(),
});
export type NavGuardMessage = z.infer<typeof NavGuardMessageSchema>;

/**
 * Driver → daemon: the driver stopped a top-level navigation of `tabId` to `url` (nothing was sent
 * there). `popup`: it was the first navigation of a tab `tabId`'s page opened, and that tab was closed.
 */
export const NavigationBlockedMessageSchema = z.strictObject({
  type: z.literal('navigation_blocked'),
  tabId: RawTabIdSchema,
  url: z.string().max(8192),
  popup: z.boolean(),
});
export type NavigationBlockedMessage = z.infer<typeof NavigationBlockedMessageSchema>;

/** Whether the guard stops a navigation to `url`: deny and ask (no person can answer in the browser), or any http(s) URL when the policy is unusable. */
export function guardRefuses(policy: SitePolicy | null, url: string): boolean {
  if (policy === null) {
    try {
      const { protocol } = new URL(url);
      return protocol === 'http:' || protocol === 'https:';
    } catch {
      return false;
    }
  }
  const verdict = decideUrl(policy, url);
  return verdict !== null && verdict.decision !== 'allow';
}

/** Whether a policy refuses anything at all (when it does not, drivers need not look at navigations). */
export function policyRefusesAny(policy: SitePolicy | null): boolean {
  if (policy === null || policy.default !== 'allow') return true;
  return Object.values(policy.origins).some((o) => o.rule !== undefined && o.rule !== 'allow');
}
