/**
 * The user's "Share this tab" (the popup's button, the panel's): the tab joins a session the daemon
 * makes, and is driven from then on.
 */
import type { ChromeApi } from '../../chrome-api';
import type { PanelAnswer } from '../../common/panel-messages';
import type { DrivenTabs } from '../driver/driven-tabs';
import { messageOf } from '../driver/errors';
import type { WorkerLog } from '../log';
import type { Connection } from './connection';

export type ShareFn = (tabId: number) => Promise<PanelAnswer>;

export interface ShareOptions {
  chrome: Pick<ChromeApi, 'tabs'>;
  connection: Pick<Connection, 'userRequest'>;
  tabs: Pick<DrivenTabs, 'add'>;
  log: WorkerLog;
}

export function shareTab({ chrome, connection, tabs, log }: ShareOptions): ShareFn {
  return async (tabId) => {
    let tab;
    try {
      tab = await chrome.tabs.get(tabId);
    } catch (error) {
      return { ok: false, reason: `that tab is gone (${messageOf(error)})` };
    }
    const answer = await connection.userRequest({
      kind: 'share_tab',
      tabId,
      url: (tab.url ?? tab.pendingUrl ?? '').slice(0, 8192),
      title: (tab.title ?? '').slice(0, 1024),
    });
    if (!answer.ok) return answer;
    if (answer.result.kind !== 'share_tab')
      return { ok: false, reason: 'the daemon answered something else' };
    tabs.add(tabId);
    // Not the session id: it is the capability of the agent the user shares with, and any holder of the
    // daemon token may read this log (`bproxy debug log`).
    log.info('tab_shared', { tabId, created: answer.result.shared.created });
    return answer;
  };
}
