/**
 * The site policy as the daemon holds it (the file itself is the lifecycle's: policy-store.ts): what it
 * says of a URL, what it refused lately (the Policy view's "decisions taken"), and a person's new policy
 * from the extension's user channel. No agent-facing door reaches `save`.
 */
import {
  DEFAULT_SITE_POLICY,
  SitePolicySchema,
  decideUrl,
  type PolicyDecision,
  type PolicyRefusal,
  type SitePolicy,
} from '@bproxy/protocol';
import { Blocks } from './blocked';

/** A decision, or why none can be made (policy.json unsafe or malformed: every origin is denied). */
export type LiveVerdict =
  | { readonly origin: string; readonly decision: PolicyDecision; readonly rule: string }
  | { readonly origin: string; readonly broken: string };

/** Where the policy lives: the file in BPROXY_HOME (start-daemon.ts), or memory in tests. */
export interface PolicySource {
  current(): { policy: SitePolicy } | { broken: string };
  decide(url: string): LiveVerdict | null;
  save(policy: SitePolicy): SitePolicy;
}

/** A policy kept in memory: the defaults unless given (a daemon built without a home). */
export function memoryPolicy(initial: SitePolicy = DEFAULT_SITE_POLICY): PolicySource {
  let policy = SitePolicySchema.parse(initial);
  return {
    current: () => ({ policy }),
    decide: (url) => decideUrl(policy, url),
    save: (next) => (policy = SitePolicySchema.parse(next)),
  };
}

const KEPT = 50;

/** The daemon's side: the source, and the refusals it made lately (newest last). */
export class SitePolicyGate {
  private readonly taken: PolicyRefusal[] = [];
  /** The navigations the drivers stopped lately (blocked.ts). */
  readonly blocks = new Blocks();
  /** Tells the drivers the policy in force if it changed (set with the driver connections, daemon.ts). */
  syncGuard: () => void = () => undefined;

  constructor(readonly source: PolicySource) {}

  decide(url: string): LiveVerdict | null {
    return this.source.decide(url);
  }

  /**
   * The policy in force, or null when policy.json is unusable: the drivers then refuse every origin in
   * the browser, and approvals deny every class.
   */
  inForce(): SitePolicy | null {
    const now = this.source.current();
    return 'policy' in now ? now.policy : null;
  }

  noteRefusal(refusal: PolicyRefusal): void {
    this.taken.push(refusal);
    if (this.taken.length > KEPT) this.taken.shift();
  }

  refusals(): PolicyRefusal[] {
    return [...this.taken];
  }

  clearRefusals(): void {
    this.taken.length = 0;
  }
}

/** Whether the verdict stops the tab from being there: deny, ask (no person can answer yet), or a broken file. */
export function refuses(verdict: LiveVerdict | null): verdict is LiveVerdict {
  return verdict !== null && ('broken' in verdict || verdict.decision !== 'allow');
}

/** The one line an agent is told. */
export function refusalLine(verdict: LiveVerdict): string {
  const fix = 'only a person can allow it, in the side panel (Policy) or BPROXY_HOME/policy.json';
  if ('broken' in verdict)
    return `${verdict.origin} is denied: the site policy is unusable (${verdict.broken})`;
  if (verdict.decision === 'ask')
    return `${verdict.origin} is "ask" by rule ${verdict.rule} and no person can answer here, so it is denied; ${fix}`;
  return `${verdict.origin} is denied by rule ${verdict.rule}; ${fix}`;
}

/** The rule to put in the answer's details. */
export function ruleOf(verdict: LiveVerdict): string {
  return 'broken' in verdict ? 'unusable policy.json' : `${verdict.rule}: ${verdict.decision}`;
}
