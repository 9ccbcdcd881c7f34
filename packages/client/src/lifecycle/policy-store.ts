/**
 * BPROXY_HOME/policy.json, the site policy (protocol's site-policy.ts): load, save and decide, for the
 * daemon (which enforces it), the extension's Policy view (through the daemon) and approvals later.
 * Read with the checks of every state file (no symlink, the user's own, not open to group or others)
 * and against the protocol's schema; no file means the defaults (every origin allowed). A file that is
 * unsafe or outside the format is never guessed around: loading throws, and a daemon that holds a
 * policy denies every origin until the file is fixed (fail closed). Written atomically, mode 0600.
 */
import {
  DEFAULT_SITE_POLICY,
  SitePolicySchema,
  decideUrl,
  type PolicyVerdict,
  type SitePolicy,
} from '@bproxy/protocol';
import { lstatSync } from 'node:fs';
import { LifecycleError, errnoCode, isLifecycleError } from './errors';
import type { StatePaths } from './paths';
import { readStateJson, writeStateFileAtomic } from './secure-file';

/** The policy in policy.json, or the defaults when there is none. Throws LifecycleError when unsafe or malformed. */
export function loadPolicy(paths: StatePaths): SitePolicy {
  const file = readStateJson(paths.policy, SitePolicySchema);
  if (file === null) return DEFAULT_SITE_POLICY;
  if (file === 'invalid')
    throw new LifecycleError(
      'unsafe-state',
      `refusing to use ${paths.policy}: it is not a site policy ({"version": 1, "default": "allow"|"deny"|"ask", "origins": {"https://example.com": {"rule": "deny"}}}); fix it or remove it`,
    );
  return file;
}

/** Writes the policy (checked against the schema first), atomically with mode 0600. */
export function savePolicy(paths: StatePaths, policy: SitePolicy): void {
  const checked = SitePolicySchema.parse(policy);
  writeStateFileAtomic(paths.policy, `${JSON.stringify(checked, null, 2)}\n`);
}

/** What identifies one version of the file: changes when it is written, replaced or re-moded. */
function stamp(path: string): string {
  try {
    const s = lstatSync(path, { bigint: true });
    return [s.dev, s.ino, s.size, s.mtimeNs, s.ctimeNs, s.mode, s.uid].join(':');
  } catch (error) {
    return `absent:${errnoCode(error) ?? 'unknown'}`;
  }
}

/** A decision, or the reason none can be made (the file is unsafe or malformed: everything is denied). */
export type LiveVerdict = PolicyVerdict | { readonly origin: string; readonly broken: string };

/**
 * The policy as a running daemon holds it: read when it starts (which throws when the file is bad, so
 * the start stops), then read again whenever the file changes — a hand edit takes effect with the next
 * navigation. A file that became unsafe or malformed denies every origin, with the reason, until fixed.
 */
export class PolicyStore {
  private stamp: string;
  private policy: SitePolicy | null;
  private problem: string | null = null;

  constructor(
    private readonly paths: StatePaths,
    private readonly onChange?: (problem: string | null) => void,
  ) {
    this.stamp = stamp(paths.policy);
    this.policy = loadPolicy(paths);
  }

  /** The current policy, or the reason it cannot be used. */
  current(): { policy: SitePolicy } | { broken: string } {
    const now = stamp(this.paths.policy);
    if (now !== this.stamp) {
      this.stamp = now;
      try {
        this.policy = loadPolicy(this.paths);
        this.problem = null;
      } catch (error) {
        this.policy = null;
        this.problem = isLifecycleError(error) ? error.message : String(error);
      }
      this.onChange?.(this.problem);
    }
    return this.policy === null ? { broken: this.problem ?? 'policy unreadable' } : { policy: this.policy };
  }

  /** What the policy says of `url`; null for URLs no origin rule names (about:blank). */
  decide(url: string): LiveVerdict | null {
    const now = this.current();
    if ('policy' in now) return decideUrl(now.policy, url);
    const verdict = decideUrl(DEFAULT_SITE_POLICY, url);
    return verdict === null ? null : { origin: verdict.origin, broken: now.broken };
  }

  /** Replaces the policy (a person's act: the extension's user channel), then holds what was written. */
  save(policy: SitePolicy): SitePolicy {
    savePolicy(this.paths, policy);
    this.stamp = stamp(this.paths.policy);
    this.policy = SitePolicySchema.parse(policy);
    this.problem = null;
    return this.policy;
  }
}
