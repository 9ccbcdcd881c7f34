/**
 * The popup's controller: polls the worker for status while open, probes the daemon's port, and runs
 * the pairing form (claim → hand the bootstrap to the worker → show the outcome).
 */
import { DEFAULT_PORT } from '@bproxy/protocol';
import type { PairAnswer, PopupMessage, ShareAnswer, TabSession, WorkerStatus } from '../common/messages';
import { claimPairing, parsePort, probeDaemon } from '../common/pair-client';
import { PopupView } from './view';

const POLL_MS = 1_000;

interface RuntimeLike {
  sendMessage(message: PopupMessage): Promise<unknown>;
}
interface TabsLike {
  query(q: { active: boolean; lastFocusedWindow: boolean }): Promise<{ id?: number; windowId?: number }[]>;
}
interface SidePanelLike {
  open(options: { windowId: number }): Promise<void>;
}
const platform = (
  globalThis as unknown as { chrome: { runtime: RuntimeLike; tabs: TabsLike; sidePanel?: SidePanelLike } }
).chrome;
const runtime = platform.runtime;

const view = new PopupView();
let portTouched = false;
/** Set after a successful pairing until the worker reports the connection. */
let awaitingConnection = false;
/** "Paired and connected." is on screen; it goes when the connection does. */
let connectedNote = false;
/** The CLI launcher the native host wrote (absolute path), for the line handed out. */
let cli: string | undefined;
/** The session this popup just shared the tab as, until the worker reports the tab held. */
let justShared: string | null = null;

/** A tab a session holds already is not offered for sharing: its session and line are shown instead. */
async function showHolder(): Promise<void> {
  const tabId = await targetTab();
  const held = tabId === null ? null : await ask<TabSession>({ type: 'tab_session', tabId });
  if (held) {
    justShared = null;
    view.showShared(held.session, cli);
  } else if (justShared === null) view.showUnshared();
  // else: shared from this popup a moment ago; the daemon's word of it is on its way.
}

async function ask<T>(message: PopupMessage): Promise<T | null> {
  try {
    return (await runtime.sendMessage(message)) as T;
  } catch {
    return null;
  }
}

function portOf(status: WorkerStatus | null): number {
  if (status?.wsUrl) {
    const port = Number(new URL(status.wsUrl.replace(/^ws:/, 'http:')).port);
    if (Number.isInteger(port) && port > 0) return port;
  }
  return parsePort(view.port.value) ?? DEFAULT_PORT;
}

async function refresh(): Promise<void> {
  const status = await ask<WorkerStatus>({ type: 'status' });
  const port = portOf(status);
  if (!portTouched && status?.wsUrl) view.port.value = String(port);
  const reachable = await probeDaemon(`http://127.0.0.1:${port}`);
  if (!status) {
    view.showWorkerMissing();
    return;
  }
  view.showStatus(status, reachable);
  cli = status.host.cli;
  view.showShare(status.state === 'connected');
  if (status.state === 'connected') await showHolder();
  if (awaitingConnection && status.state === 'connected') {
    awaitingConnection = false;
    connectedNote = true;
    view.say('Paired and connected.', 'ok');
  } else if (connectedNote && status.state !== 'connected') {
    connectedNote = false;
    view.say('', '');
  }
}

async function pair(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  view.busy(true);
  view.say('Pairing…', '');
  try {
    const claimed = await claimPairing(view.port.value, view.code.value);
    if (!claimed.ok) {
      view.say(claimed.message, 'bad');
      return;
    }
    const answer = await ask<PairAnswer>({ type: 'pair', bootstrap: claimed.bootstrap });
    if (!answer) view.say('The extension worker did not answer; reload the extension and try again.', 'bad');
    else if (!answer.ok) view.say(`Pairing refused: ${answer.reason}.`, 'bad');
    else {
      view.code.value = '';
      awaitingConnection = true;
      view.say('Paired. Connecting to bproxy…', 'ok');
    }
  } finally {
    view.busy(false);
    void refresh();
  }
}

/**
 * The tab this popup acts for: the one in front, or the one named by `?tab=ID` when the page is opened
 * for a given tab (the side panel's link, a popup opened as a page).
 */
async function targetTab(): Promise<number | null> {
  const named = Number(new URLSearchParams(location.search).get('tab'));
  if (Number.isInteger(named) && named > 0) return named;
  const [front] = await platform.tabs.query({ active: true, lastFocusedWindow: true });
  return front?.id ?? null;
}

async function shareTab(): Promise<void> {
  view.sayShare('Sharing…', '');
  const tabId = await targetTab();
  if (tabId === null) {
    view.sayShare('No tab to share: open the page you want to share first.', 'bad');
    return;
  }
  const answer = await ask<ShareAnswer>({ type: 'share', tabId });
  if (!answer)
    view.sayShare('The extension worker did not answer; reload the extension and try again.', 'bad');
  else if (!answer.ok) view.sayShare(`Not shared: ${answer.reason}.`, 'bad');
  else {
    view.sayShare('', '');
    justShared = answer.session;
    view.showShared(answer.session, cli);
  }
}

view.shareButton.addEventListener('click', () => {
  shareTab().catch((error: unknown) => view.sayShare(`Not shared: ${String(error)}`, 'bad'));
});
view.copyButton.addEventListener('click', () => {
  void navigator.clipboard.writeText(view.sharedLine.textContent ?? '').then(
    () => view.sayShare('Copied.', 'ok'),
    () => view.sayShare('Could not copy: select the line and copy it by hand.', 'warn'),
  );
});
// sidePanel.open() needs the user's gesture: it is called in the click itself, with the window known
// beforehand (an await before it would lose the gesture). The button is enabled once the query
// answers (popup.html starts it disabled); a browser without chrome.sidePanel is told it needs a newer one.
let frontWindow: number | 'unknown' | 'none' = 'unknown';
platform.tabs
  .query({ active: true, lastFocusedWindow: true })
  .then(
    ([front]) => {
      frontWindow = front?.windowId ?? 'none';
    },
    () => {
      frontWindow = 'none';
    },
  )
  .finally(() => {
    view.openPanel.disabled = false;
  });
view.openPanel.addEventListener('click', () => {
  const side = platform.sidePanel;
  if (!side) {
    view.say('This browser has no side panel for extensions (Chrome 116 and later have one).', 'bad');
    return;
  }
  if (frontWindow === 'unknown') {
    view.say('Still finding this window: try again in a moment.', '');
    return;
  }
  if (frontWindow === 'none') {
    view.say('No browser window to open the side panel in: click the toolbar icon in one.', 'bad');
    return;
  }
  side.open({ windowId: frontWindow }).then(
    () => window.close(),
    (error: unknown) => view.say(`Could not open the side panel: ${String(error)}`, 'bad'),
  );
});
view.startDaemon.addEventListener('click', () => {
  view.startDaemon.disabled = true;
  view.startDaemon.textContent = 'Starting bproxy…';
  void ask<PairAnswer>({ type: 'start_daemon' }).then((answer) => {
    view.startDaemon.disabled = false;
    view.startDaemon.textContent = 'Start bproxy';
    if (!answer) view.say('The extension worker did not answer; reload the extension and try again.', 'bad');
    else if (!answer.ok) view.say(`Could not start bproxy: ${answer.reason}.`, 'bad');
    else view.say('', '');
    void refresh();
  });
});
view.form.addEventListener('submit', (event) => void pair(event));
view.port.addEventListener('input', () => {
  portTouched = true;
});
view.unpairButton.addEventListener('click', () => {
  void ask<PairAnswer>({ type: 'unpair' }).then(() => {
    view.say('Pairing forgotten. Pair again to let bproxy drive this browser.', '');
    void refresh();
  });
});

void refresh();
setInterval(() => void refresh(), POLL_MS);
