/**
 * Tabs a page opened (a target=_blank link, window.open: a sign-in window, a receipt). A driver's
 * tab_opened push puts the new tab in the session of the tab that opened it, under the session's next
 * handle — left open like its opener when the session ends, if the user shared that one. The answer of
 * the action that opened it names it by handle; a tab no answer named is told in the session's next
 * answer instead (session-notes.ts). Raw tab ids stay in here.
 */
import type { OpenedTab, TabOpenedMessage } from '@bproxy/protocol';
import type { ClientRecord } from '../browsers/clients';
import { ElementHandles } from './element-handles';
import type { Logger } from '../logs/logger';
import type { SessionRecord, SessionRegistry } from './sessions';

/** A page that keeps opening tabs stops adding to its session here. */
export const MAX_TABS_PER_SESSION = 100;

interface OpenedTabDeps {
  sessions: SessionRegistry;
  handles: ElementHandles;
  logger: Logger;
}

export function registerOpenedTab(deps: OpenedTabDeps, client: ClientRecord, msg: TabOpenedMessage): void {
  const { sessions } = deps;
  const opener = sessions.byRaw(client.key, msg.openerTabId);
  const session = opener === undefined ? undefined : sessions.get(opener.session);
  if (opener === undefined || session === undefined) {
    deps.logger.debug({ event: 'tab_opened_ignored', ws_client: client.label, why: 'opener in no session' });
    return;
  }
  if (sessions.byRaw(client.key, msg.tabId) !== undefined) return; // told twice (a reconnect)
  // While the session waits for a person (a challenge, or the user took over), the person is the one
  // acting in its tabs: what they open is theirs, not the agent's.
  if (session.paused) {
    deps.logger.info({
      event: 'tab_opened_ignored',
      session: session.id,
      why: 'session paused for a person',
    });
    return;
  }
  if (session.tabs.size >= MAX_TABS_PER_SESSION) {
    deps.logger.warn({ event: 'tab_opened_ignored', session: session.id, why: 'session tab limit' });
    return;
  }
  const tab = sessions.addTab(session, {
    clientKey: client.key,
    rawTabId: msg.tabId,
    url: msg.url,
    title: '',
    pinned: false,
    openedBy: opener.handle,
    ...(opener.adopted ? { adopted: true as const } : {}),
  });
  deps.handles.observePage(ElementHandles.pageKey(client.key, msg.tabId), msg.url);
  session.notes.push({ kind: 'opened', about: tab.handle });
  deps.logger.info({ event: 'tab_opened', session: session.id, tab: tab.handle, opener: opener.handle });
}

/**
 * A driver's `openedTabs` (raw tab ids) as the agent sees them: handles and where each is now. Those
 * named here are not told again in a note; a tab the session did not take is left out.
 */
export function openedTabsOf(
  sessions: SessionRegistry,
  session: SessionRecord,
  clientKey: string,
  reported: readonly { tabId: number; url: string }[],
): OpenedTab[] {
  const named: OpenedTab[] = [];
  for (const { tabId, url } of reported) {
    const tab = sessions.byRaw(clientKey, tabId);
    if (tab === undefined || tab.session !== session.id) continue;
    named.push({ tab: tab.handle, url: tab.url === '' || tab.url === 'about:blank' ? url : tab.url });
    session.notes = session.notes.filter((n) => !(n.kind === 'opened' && n.about === tab.handle));
  }
  return named;
}
