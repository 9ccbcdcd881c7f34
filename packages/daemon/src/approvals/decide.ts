/**
 * Approvals' class decision: what the site policy says of an action class on an origin. The person's
 * per-origin decision ("Always on this site") first, then the policy's class default, then the
 * built-in default for where the browser is: in the user's own Chrome (the extension driver) every
 * class asks; in a browser bproxy launched (no user data in it) submit, send and delete ask and the
 * rest is allowed; a first visit is allowed everywhere unless the user turns it to ask.
 */
import type { ActionClass, PolicyDecision, SitePolicy } from '@bproxy/protocol';

export type BrowserKind = 'user' | 'launched';

export function builtInDefault(cls: ActionClass, where: BrowserKind): PolicyDecision {
  if (cls === 'first_visit') return 'allow';
  if (where === 'user') return 'ask';
  return cls === 'submit' || cls === 'send' || cls === 'delete' ? 'ask' : 'allow';
}

/**
 * Whether a class no `classes` entry names falls back to the built-in defaults above. Off in this
 * release: the project's own end-to-end fixtures press buttons named Pay and Send, and their suites set
 * no approvals policy yet; until they do, only what policy.json's `classes` say is enforced.
 */
export const BUILT_IN_DEFAULTS = false;

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
  return policy.classes?.[cls] ?? (BUILT_IN_DEFAULTS ? builtInDefault(cls, where) : 'allow');
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
