/**
 * The side panel: which tab it serves (the one in front of its own window, following tab switches
 * there; or `?tab=ID` when the page is opened for one tab), its port to the worker, the hand-off strip
 * for that tab, the actions waiting for the person's decision (above every view), and four views —
 * Activity, Chat, Terminal, Policy — switched by the tab bar.
 */
import type { SessionStorage } from './tab-ids';
import { ActivityView } from './activity-view';
import { ChatView } from './chat-view';
import { DebugNote } from './debug-note';
import { setupCommand } from '../common/user-commands';
import { byId } from './dom';
import { followFrontTab, type FrontTabApi } from './front-tab';
import { HandoffView } from './handoff-view';
import { PanelLink, type PortApi } from './link';
import { TerminalView } from './terminal-view';
import { PolicyView } from './policy-view';
import { ApprovalsView } from './approvals-view';

const platform = (
  globalThis as unknown as {
    chrome: FrontTabApi & { runtime: PortApi; storage: { session: SessionStorage; local: SessionStorage } };
  }
).chrome;

const fixed = Number(new URLSearchParams(location.search).get('tab'));
let tab: number | null = Number.isInteger(fixed) && fixed > 0 ? fixed : null;
const currentTab = () => tab;

/** Settles once the panel knows its tab, or knows it cannot (then `tab` stays null). */
let knowTab: () => void = () => undefined;
const tabKnown = new Promise<void>((resolve) => (knowTab = resolve));

const link = new PanelLink(platform.runtime);
link.connect();
const handoff = new HandoffView(link, currentTab, () => tabKnown.then(currentTab));
const activity = new ActivityView(link, currentTab);
const debugNote = new DebugNote(link, () => handoff.current(), platform.storage.local);
const chat = new ChatView(link, currentTab, platform.storage.session);
const terminal = new TerminalView({
  link,
  currentTab,
  sessionOf: () => handoff.current()?.info.session,
  storage: platform.storage.session,
});

const policy = new PolicyView(link);
// Decisions waiting for the person show above every view: nobody has to look for them.
new ApprovalsView(link);

const status = byId('status');
const startDaemon = byId<HTMLButtonElement>('start-daemon');
/** Said in the status line until the panel knows its tab (set when the front tab cannot be read). */
let tabProblem = '';
/** Why the last Start bproxy failed, said until the daemon is up. */
let startProblem = '';
startDaemon.addEventListener('click', () => {
  startDaemon.disabled = true;
  startDaemon.textContent = 'Starting bproxy…';
  startProblem = '';
  link.send({ type: 'start_daemon' });
});
link.on((message) => {
  if (message.type === 'daemon_start') {
    startDaemon.disabled = false;
    startDaemon.textContent = 'Start bproxy';
    startProblem = message.ok ? '' : `could not start bproxy: ${message.reason ?? 'no reason given'}`;
    return;
  }
  if (message.type !== 'status') return;
  // The native host can start the daemon: offer it where it is down (a reconnect cannot help).
  startDaemon.hidden = !(message.daemon === 'down' && message.host === 'connected');
  if (message.daemon === 'connected') startProblem = '';
  const problems = [
    message.daemon === 'connected'
      ? ''
      : message.daemon === 'unpaired'
        ? 'not paired'
        : message.daemon === 'connecting'
          ? 'connecting to bproxy…'
          : 'bproxy is not running',
    startProblem,
    message.host === 'missing' ? `native host not installed (${setupCommand()})` : '',
    message.problem ?? '',
    tabProblem,
  ].filter((p) => p !== '');
  status.textContent = problems.length === 0 ? 'connected' : problems.join(' · ');
  // The line is cut to one line (the view tabs below must not move): the whole of it on hover.
  status.title = status.textContent;
  status.className = `status${message.daemon === 'connected' && tabProblem === '' && message.problem === undefined ? '' : ' bad'}`;
});

const follow = (tabId: number) => {
  tab = tabId;
  handoff.render();
  debugNote.render();
  activity.tabChanged();
  chat.tabChanged();
  terminal.tabChanged();
};
if (tab === null) {
  followFrontTab(platform, follow)
    .catch((error: unknown) => {
      tabProblem = `cannot tell which tab is in front: ${String(error)}`;
      status.textContent = tabProblem;
      status.className = 'status bad';
    })
    .finally(knowTab);
} else knowTab();

const views = ['activity', 'chat', 'terminal', 'policy'] as const;
type ViewName = (typeof views)[number];
/** The view last chosen, kept for the browser session: the panel reopens on it. */
const LAST_VIEW = 'panel.view';
const select = (name: ViewName): void => {
  for (const other of views) {
    byId(`tab-${other}`).setAttribute('aria-selected', String(other === name));
    byId(`view-${other}`).hidden = other !== name;
  }
  if (name === 'terminal') terminal.show();
  if (name === 'policy') policy.show();
};
for (const name of views) {
  byId(`tab-${name}`).addEventListener('click', () => {
    select(name);
    void platform.storage.session.set({ [LAST_VIEW]: name }).catch(() => undefined);
  });
}
void platform.storage.session.get(LAST_VIEW).then(
  (stored) => {
    const last = views.find((v) => v === stored[LAST_VIEW]);
    if (last !== undefined && last !== 'activity') select(last);
  },
  () => undefined,
);
// A panel opened for one tab serves it from the start: its terminal, if it has one, is attached now.
if (tab !== null) terminal.tabChanged();
