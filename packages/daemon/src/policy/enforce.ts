/**
 * The site policy at the one place every action passes: a navigate or tab open to a refused origin is
 * answered POLICY_DENIED before anything is forwarded; an action on a tab whose page is on a refused
 * origin is refused the same way (a session resumed there gains nothing); and where the browser went
 * on its own — a link, a popup, a redirect — the session pauses with the reason, like a login wall,
 * and the action that took it there answers POLICY_DENIED. "ask" is denied: no person can answer yet.
 */
import type { ActionName, NavigationBlockedMessage } from '@bproxy/protocol';
import type { DriverOutcome } from '../browsers/forwarded-requests';
import { recordSessionEvent } from '../actions/activity-trail';
import { failed } from '../actions/outcome';
import type { CommandRouteDeps } from '../actions/types';
import type { SessionRecord, TabRecord } from '../sessions/sessions';
import { refusalLine, refuses, ruleOf, type LiveVerdict } from './site-policy';
import { blockKey } from './blocked';

function denied(verdict: LiveVerdict): DriverOutcome {
  return failed('POLICY_DENIED', refusalLine(verdict), {
    details: { origin: verdict.origin, rule: ruleOf(verdict) },
  });
}

/** navigate / tab.open: the refusal of a URL the policy does not let a tab go to, or null. */
export function refuseDestination(
  deps: CommandRouteDeps,
  session: SessionRecord | null,
  url: string,
): DriverOutcome | null {
  deps.policy.syncGuard();
  const verdict = deps.policy.decide(url);
  if (!refuses(verdict)) return null;
  deps.policy.noteRefusal({
    at: deps.clock.now(),
    origin: verdict.origin,
    rule: ruleOf(verdict),
    session: session?.id ?? '',
    how: 'navigate',
  });
  deps.logger.info({ event: 'policy_denied', origin: verdict.origin, session: session?.id });
  return denied(verdict);
}

/** Actions that leave the page or only manage the tab: allowed on any page (navigate is judged by its URL). */
const LEAVING: ReadonlySet<ActionName> = new Set<ActionName>([
  'navigate',
  'back',
  'forward',
  'tab.close',
  'tab.pin',
  'tab.unpin',
]);

/** Any other tab action on a page of a refused origin is refused before it is forwarded. */
export function refuseOnPage(
  deps: CommandRouteDeps,
  action: ActionName,
  tab: TabRecord,
): DriverOutcome | null {
  // The drivers hold the policy in force before this action runs (a person may have just edited it).
  deps.policy.syncGuard();
  if (LEAVING.has(action)) return null;
  const verdict = deps.policy.decide(tab.url);
  return refuses(verdict) ? denied(verdict) : null;
}

/**
 * A session tab reached a refused origin by the browser's own doing (a link, a popup, a redirect):
 * the session pauses with the reason, once per landing. Returns the verdict when it refused.
 */
export function landed(
  deps: CommandRouteDeps,
  session: SessionRecord,
  tab: TabRecord,
  url: string,
): LiveVerdict | null {
  const verdict = deps.policy.decide(url);
  if (!refuses(verdict)) return null;
  // Already paused (a person is acting in its tabs, or this very landing): nothing more to say to them.
  if (session.paused) return verdict;
  const reason = refusalLine(verdict);
  deps.sessions.pause(session, reason);
  deps.policy.noteRefusal({
    at: deps.clock.now(),
    origin: verdict.origin,
    rule: ruleOf(verdict),
    session: session.id,
    how: 'landed',
  });
  deps.logger.info({ event: 'policy_paused', origin: verdict.origin, session: session.id, tab: tab.handle });
  recordSessionEvent(deps, session, 'pause', reason);
  return verdict;
}

/**
 * After an action's answer: if it (or a tab its page opened) brought the session to a refused origin,
 * the session is paused there and the answer is POLICY_DENIED instead.
 */
export function checkLanding(
  deps: CommandRouteDeps,
  session: SessionRecord,
  tab: TabRecord,
  outcome: DriverOutcome,
  mark?: number,
): DriverOutcome {
  // A navigation (or popup) the driver stopped while this action ran: the action is what was refused.
  if (mark !== undefined) {
    const block = deps.policy.blocks.since(mark, new Set([blockKey(tab.clientKey, tab.rawTabId)]));
    if (block) {
      landed(deps, session, tab, block.url);
      return denied(block.verdict);
    }
  }
  if (!outcome.ok) return outcome;
  const here = landed(deps, session, tab, tab.url);
  if (here) return denied(here);
  // The tabs this action's page opened, as the answer names them (opened-tabs.ts).
  const opened = (outcome.data as { openedTabs?: unknown } | null)?.openedTabs;
  if (!Array.isArray(opened)) return outcome;
  for (const entry of opened as { tab?: unknown; url?: unknown }[]) {
    const popup =
      typeof entry.tab === 'string' ? session.tabs.get(entry.tab as TabRecord['handle']) : undefined;
    if (popup === undefined) continue;
    const url = popup.url === '' && typeof entry.url === 'string' ? entry.url : popup.url;
    const verdict = landed(deps, session, popup, url);
    if (verdict) return denied(verdict);
  }
  return outcome;
}

/** Where the last stop stands: taken before an action is forwarded, given to checkLanding after. */
export function policyMark(deps: CommandRouteDeps): number {
  return deps.policy.blocks.mark();
}

/**
 * A driver stopped a navigation (nothing was sent to that origin): judged again here for the origin and
 * rule the answer names, noted for the action running on that tab, and its session paused with the
 * reason. A tab the daemon does not know yet (tab.open's own new tab) is only noted: that action finds it.
 */
export function navigationBlocked(
  deps: CommandRouteDeps,
  clientKey: string,
  msg: NavigationBlockedMessage,
): void {
  const verdict = deps.policy.decide(msg.url);
  deps.logger.info({ event: 'policy_blocked', origin: verdict?.origin, popup: msg.popup });
  if (!refuses(verdict)) return;
  deps.policy.blocks.note(blockKey(clientKey, msg.tabId), msg.url, msg.popup, verdict);
  const tab = deps.sessions.byRaw(clientKey, msg.tabId);
  const session = tab ? deps.sessions.get(tab.session) : undefined;
  if (!tab || !session) return;
  // The tab now shows the browser's "blocked" page, which stands for that URL: nothing runs there.
  if (!msg.popup) tab.url = msg.url;
  landed(deps, session, tab, msg.url);
}

/** A driver said a tab committed a navigation (or a tab was opened): judged for its session. */
export function watchNavigation(deps: CommandRouteDeps, tab: TabRecord): void {
  const session = deps.sessions.get(tab.session);
  if (session) landed(deps, session, tab, tab.url);
}
