/**
 * The side panel: which tab it serves (the one in front of its own window, following tab switches
 * there; or `?tab=ID` when the page is opened for one tab), its port to the worker, the hand-off strip
 * for that tab, and three views — Activity, Chat, Terminal — switched by the tab bar.
 */
import type { SessionStorage } from './tab-ids';
import { ActivityView } from './activity-view';
import { ChatView } from './chat-view';
import { setupCommand } from '../common/user-commands';
import { byId } from './dom';
import { followFrontTab, type FrontTabApi } from './front-tab';
import { HandoffView } from './handoff-view';
import { PanelLink, type PortApi } from './link';
import { TerminalView } from './terminal-view';

const platform = (
  globalThis as unknown as {
    chrome: FrontTabApi & { runtime: PortApi; storage: { session: SessionStorage } };
  }
).chrome;

const fixed = Number(new URLSearchParams(location.search).get('tab'));
let tab: number | null = Number.isInteger(fixed) && fixed > 0 ? fixed : null;
const currentTab = () => tab;

const link = new PanelLink(platform.runtime);
link.connect();
const handoff = new HandoffView(link, currentTab);
const activity = new ActivityView(link, currentTab);
const chat = new ChatView(
  link,
  currentTab,
  (tabId) => handoff.sessionOf(tabId)?.info.session,
  platform.storage.session,
);
const terminal = new TerminalView({
  link,
  currentTab,
  sessionOf: () => handoff.current()?.info.session,
  storage: platform.storage.session,
});

const status = byId('status');
/** Said in the status line until the panel knows its tab (set when the front tab cannot be read). */
let tabProblem = '';
link.on((message) => {
  if (message.type !== 'status') return;
  const problems = [
    message.daemon === 'connected' ? '' : message.daemon === 'unpaired' ? 'not paired' : 'bproxy not running',
    message.host === 'missing' ? `native host not installed (${setupCommand()})` : '',
    message.problem ?? '',
    tabProblem,
  ].filter((p) => p !== '');
  status.textContent = problems.length === 0 ? 'connected' : problems.join(' · ');
  status.className = `status${message.daemon === 'connected' && tabProblem === '' && message.problem === undefined ? '' : ' bad'}`;
});

const follow = (tabId: number) => {
  tab = tabId;
  handoff.render();
  activity.tabChanged();
  chat.tabChanged();
  terminal.tabChanged();
};
if (tab === null) {
  followFrontTab(platform, follow).catch((error: unknown) => {
    tabProblem = `cannot tell which tab is in front: ${String(error)}`;
    status.textContent = tabProblem;
    status.className = 'status bad';
  });
}

const views = ['activity', 'chat', 'terminal'] as const;
for (const name of views) {
  byId(`tab-${name}`).addEventListener('click', () => {
    for (const other of views) {
      byId(`tab-${other}`).setAttribute('aria-selected', String(other === name));
      byId(`view-${other}`).hidden = other !== name;
    }
    if (name === 'terminal') terminal.show();
  });
}
