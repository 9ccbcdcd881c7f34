/**
 * A browser came back after a restart (its extension's hello names another run): the tabs the daemon
 * knew in it are gone — their ids may even name other tabs now. Each is forgotten (an agent's session
 * stays, unbound, its next action told its tab was lost), and a session the user shared in that
 * browser, which exists only for its tab, is closed instead of lingering with no tab — also when its tab
 * was already gone (a quitting browser closes its tabs, and says so, before it goes).
 */
import type { SessionId } from '@bproxy/protocol';
import type { ClientRecord } from '../browsers/clients';
import { destroySession, forgetTab } from './lifecycle';
import type { CommandRouteDeps } from './types';

export function forgetRestartedBrowser(deps: CommandRouteDeps, record: ClientRecord): void {
  const touched = new Set<SessionId>();
  for (const tab of deps.sessions.tabsOfClient(record.key)) {
    const session = deps.sessions.get(tab.session);
    if (session === undefined) continue;
    touched.add(session.id);
    forgetTab(deps, session, tab, 'browser_gone');
  }
  // Those whose tab went as the browser quit (it said each tab closed) have no tab left to find them
  // by: a shared session is this browser's by the name it was shared from.
  for (const session of deps.sessions.all())
    if (session.sharedByUser === true && session.browser === record.name) touched.add(session.id);
  for (const id of touched) {
    const session = deps.sessions.get(id);
    if (session === undefined || session.sharedByUser !== true || session.tabs.size > 0) continue;
    destroySession(deps, session);
    deps.logger.info({
      event: 'shared_session_closed',
      reason: 'browser_restarted',
      ws_client: record.label,
    });
  }
  deps.browserState.changed();
}
