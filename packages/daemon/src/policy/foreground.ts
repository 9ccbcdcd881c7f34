/**
 * Whether an agent may open its tab in front of the user's: the site policy's `foreground` setting,
 * which only a person writes. Agents' tabs open in the background by default; a request for the front
 * (`active: true`, the CLI's `--foreground`) under `"foreground": "deny"` is answered POLICY_DENIED and
 * nothing opens — the agent learns it, rather than getting a tab somewhere it did not ask for, and can
 * open it in the background instead. An unusable policy.json denies it too (fail closed).
 */
import type { DriverOutcome } from '../browsers/forwarded-requests';
import { failed } from '../actions/outcome';
import type { CommandRouteDeps } from '../actions/types';
import type { SessionRecord } from '../sessions/sessions';

const FIX =
  'open it in the background (without --foreground); only a person can change this, in BPROXY_HOME/policy.json';

/** tab.open asking for the front: the refusal when the policy forbids it, else null. */
export function refuseForeground(
  deps: CommandRouteDeps,
  session: SessionRecord | null,
  active: boolean | undefined,
): DriverOutcome | null {
  if (active !== true) return null;
  const now = deps.policy.source.current();
  if ('policy' in now && now.policy.foreground !== 'deny') return null;
  deps.logger.info({ event: 'policy_denied_foreground', session: session?.id });
  const why =
    'policy' in now
      ? 'the site policy forbids agents to bring a tab to the front ("foreground": "deny")'
      : `the site policy is unusable (${now.broken}), so no tab may come to the front`;
  return failed('POLICY_DENIED', `${why}; ${FIX}`, {
    details: { rule: 'policy' in now ? 'foreground: deny' : 'unusable policy.json' },
  });
}
