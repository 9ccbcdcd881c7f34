/**
 * Unsolicited messages to the daemon about driven tabs: a main-frame navigation committed, a same-
 * document history change, a tab closed. The daemon uses them to expire element handles. Every event
 * also wakes the connection, since a stopped worker is restarted by exactly such events.
 */
import type { NavigationMessage } from '@bproxy/protocol';
import type { ChromeApi, NavDetails } from '../../chrome-api';
import type { DrivenTabs, PushTarget } from '../driver/driven-tabs';

/** A tab's first commit can beat tab.open's own answer from chrome.tabs.create: keep it briefly. */
const EARLY_KEEP_MS = 30_000;
const EARLY_MAX = 50;

export function installPushes(
  chrome: ChromeApi,
  tabs: DrivenTabs,
  target: PushTarget,
  now: () => number = Date.now,
): void {
  const early: { at: number; message: NavigationMessage }[] = [];
  const navigation = (cause: 'committed' | 'history_state') => (details: NavDetails) => {
    target.ensureConnected();
    if (details.frameId !== 0) return;
    const message: NavigationMessage = { type: 'navigation', tabId: details.tabId, url: details.url, cause };
    void tabs.ready.then(() => {
      if (tabs.has(details.tabId)) {
        target.push(message);
        return;
      }
      early.push({ at: now(), message });
      if (early.length > EARLY_MAX) early.shift();
    });
  };
  tabs.onAdded((tabId) => {
    const cutoff = now() - EARLY_KEEP_MS;
    for (const entry of early.splice(0)) {
      if (entry.at < cutoff) continue;
      if (entry.message.tabId === tabId) target.push(entry.message);
      else early.push(entry);
    }
  });
  chrome.webNavigation.onCommitted.addListener(navigation('committed'));
  chrome.webNavigation.onHistoryStateUpdated.addListener(navigation('history_state'));
  chrome.tabs.onRemoved.addListener((tabId) => {
    target.ensureConnected();
    void tabs.ready.then(() => {
      if (tabs.delete(tabId)) target.push({ type: 'tab_closed', tabId });
    });
  });
}
