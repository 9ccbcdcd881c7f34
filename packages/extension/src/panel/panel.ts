/**
 * The side panel: which tab it serves (the one in front, following tab switches; or `?tab=ID` when the
 * page is opened for one tab), its port to the worker, the hand-off strip for that tab, and three views
 * — Activity, Chat, Terminal — switched by the tab bar.
 */
import { ActivityView } from './activity-view';
import { byId } from './dom';
import { HandoffView } from './handoff-view';
import { PanelLink, type PortApi } from './link';

interface TabsApi {
  query(q: { active: boolean; lastFocusedWindow: boolean }): Promise<{ id?: number }[]>;
  onActivated: { addListener(listener: (info: { tabId: number }) => void): void };
}
const platform = (globalThis as unknown as { chrome: { runtime: PortApi; tabs: TabsApi } }).chrome;

const fixed = Number(new URLSearchParams(location.search).get('tab'));
let tab: number | null = Number.isInteger(fixed) && fixed > 0 ? fixed : null;
const currentTab = () => tab;

const link = new PanelLink(platform.runtime);
link.connect();
const handoff = new HandoffView(link, currentTab);
const activity = new ActivityView(link, currentTab);

const status = byId('status');
link.on((message) => {
  if (message.type !== 'status') return;
  const problems = [
    message.daemon === 'connected' ? '' : message.daemon === 'unpaired' ? 'not paired' : 'bproxy not running',
    message.host === 'missing' ? 'native host not installed (npx bproxy setup)' : '',
  ].filter((p) => p !== '');
  status.textContent = problems.length === 0 ? 'connected' : problems.join(' · ');
  status.className = `status${message.daemon === 'connected' ? '' : ' bad'}`;
});

const follow = (tabId: number) => {
  tab = tabId;
  handoff.render();
  activity.tabChanged();
};
if (tab === null) {
  void platform.tabs.query({ active: true, lastFocusedWindow: true }).then(([front]) => {
    if (front?.id !== undefined) follow(front.id);
  });
  platform.tabs.onActivated.addListener((info) => follow(info.tabId));
}

const views = ['activity', 'chat', 'terminal'] as const;
for (const name of views) {
  byId(`tab-${name}`).addEventListener('click', () => {
    for (const other of views) {
      byId(`tab-${other}`).setAttribute('aria-selected', String(other === name));
      byId(`view-${other}`).hidden = other !== name;
    }
  });
}
