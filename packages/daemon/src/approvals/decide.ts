/**
 * Approvals' class decision: what the site policy says of an action class on an origin. The person's
 * per-origin decision ("Always on this site") first, then the policy's class default, then the
 * built-in default for where the browser is: in the user's own Chrome (the extension driver) every
 * class asks; in a browser bproxy launched (no user data in it) submit, send and delete ask and the
 * rest is allowed; a first visit is allowed everywhere unless the user turns it to ask.
 * "Launched" is a browser of launcher kind `launched` only (Launchers.launchedForAgents): an attached
 * Chrome, a shared remote endpoint and a farm's browsers count as the user's (docs/security.md says why).
 */
import {
  decideUrl,
  policyOrigin,
  type ActionClass,
  type PolicyDecision,
  type SitePolicy,
} from '@bproxy/protocol';
import type { ClientRecord } from '../browsers/clients';

export type BrowserKind = 'user' | 'launched';

/**
 * Where a client's browser is, for the built-in defaults: `launched` only for a browser bproxy launched
 * for agents (launcher kind `launched`); the extension, an attached Chrome, a shared remote endpoint and
 * a farm's browsers are the user's. Every class gate (gate.ts, downloads) asks this one function.
 */
export function browserKind(
  launchers: { launchedForAgents(client: ClientRecord): boolean },
  client: ClientRecord,
): BrowserKind {
  return launchers.launchedForAgents(client) ? 'launched' : 'user';
}

export function builtInDefault(cls: ActionClass, where: BrowserKind): PolicyDecision {
  if (cls === 'first_visit') return 'allow';
  if (where === 'user') return 'ask';
  return cls === 'submit' || cls === 'send' || cls === 'delete' ? 'ask' : 'allow';
}

/** The decision for `cls` on `origin`; an unusable policy (null) denies. */
export function classDecision(
  policy: SitePolicy | null,
  origin: string | null,
  cls: ActionClass,
  where: BrowserKind,
): PolicyDecision {
  if (policy === null) return 'deny';
  const own = origin === null ? undefined : policy.origins[origin]?.classes?.[cls];
  if (own !== undefined) return own;
  return policy.classes?.[cls] ?? builtInDefault(cls, where);
}

/**
 * Whether going to `url` is a first visit: an http(s) origin no entry of the policy names — neither
 * its own (a rule or a class decision) nor a `*.` pattern's rule covering it.
 */
export function isFirstVisit(policy: SitePolicy, url: string): boolean {
  const origin = policyOrigin(url);
  if (origin === null || policy.origins[origin] !== undefined) return false;
  return decideUrl(policy, url)?.rule === 'default';
}

/** The origin of a page URL, or null (about:blank, a data: URL). */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

export const CLASS_WORDS: Record<ActionClass, string> = {
  submit: 'pay or submit',
  send: 'send',
  delete: 'delete',
  upload: 'upload',
  download: 'download',
  state_export: 'state or cookie export',
  first_visit: 'first visit',
};
