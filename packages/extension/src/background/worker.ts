/**
 * Builds the worker's object graph from a ChromeApi and wires every platform listener. Listeners are
 * added synchronously, in the first turn of the worker's script: a worker woken by an event only
 * receives that event if its listener exists by then. Each wake path ends in ensureConnected().
 */
import { PROTOCOL_VERSION } from '@bproxy/protocol';
import type { ChromeApi } from '../chrome-api';
import type { PanelAnswer } from '../common/panel-messages';
import { PopupMessageSchema, type PairAnswer, type ShareAnswer, type WorkerStatus } from '../common/messages';
import { Connection } from './daemon/connection';
import type { DriverContext } from './driver/context';
import { proveDaemon, type FetchLike } from './daemon/daemon-proof';
import { DialogTracker } from './driver/dialog-tracker';
import { DrivenTabs } from './driver/driven-tabs';
import { messageOf } from './driver/errors';
import { ExecutedTable, DEFAULT_TABLE_OPTIONS } from './driver/executed-table';
import { BrowserView } from './daemon/browser-view';
import { Executor } from './driver/executor';
import { PanelRelay } from './host/panel-relay';
import { fromOwnPage, inDrivenTab } from './own-pages';
import { HostPairing } from './host/host-pairing';
import { NativeHost } from './host/native-host';
import { WorkerLog } from './log';
import { NavigationTracker } from './driver/navigation-tracker';
import { OpenedTabs } from './driver/opened-tabs';
import { PageRunner } from './driver/page-runner';
import { PairingStore, randomInstanceId } from './daemon/pairing-state';
import { installPushes } from './daemon/pushes';
import type { SocketFactory } from './daemon/socket';

export const KEEPALIVE_ALARM = 'bproxy-keepalive';
/** How long the daemon has to answer the proof challenge before the attempt counts as failed. */
const PROOF_TIMEOUT_MS = 5_000;

export interface WorkerOptions {
  chrome: ChromeApi;
  socketFactory: SocketFactory;
  fetch: FetchLike;
  imageSize: DriverContext['imageSize'];
  clientName: () => string;
  userAgent?: string;
  random?: () => number;
  now?: () => number;
}

export interface Worker {
  connection: Connection;
  host: NativeHost;
  executor: Executor;
  log: WorkerLog;
  status(): WorkerStatus;
}

export function startWorker(options: WorkerOptions): Worker {
  const { chrome } = options;
  const now = options.now ?? Date.now;
  const log = new WorkerLog(500, now);
  const version = chrome.runtime.getManifest().version;
  const pairing = new PairingStore(chrome.storage.local, randomInstanceId);
  const nav = new NavigationTracker();
  const dialogs = new DialogTracker(chrome, chrome.storage.session, log);
  const tabs = new DrivenTabs(chrome.storage.session, log);
  const opened = new OpenedTabs(tabs);
  const ctx: DriverContext = {
    chrome,
    session: chrome.storage.session,
    log,
    nav,
    dialogs,
    page: new PageRunner(chrome),
    tabs,
    opened,
    pointers: new Map(),
    now,
    imageSize: options.imageSize,
    navigationGraceMs: 150,
  };
  const table = new ExecutedTable(chrome.storage.session, { ...DEFAULT_TABLE_OPTIONS, now }, (error) =>
    log.warn('executed_table_storage_failed', { error: messageOf(error) }),
  );
  const executor = new Executor(ctx, table);
  const host = new NativeHost({ chrome, log, extensionVersion: version, now });
  const browserView = new BrowserView(chrome, log);
  const connection = new Connection({
    socketFactory: options.socketFactory,
    prove: (wsUrl, token) => proveDaemon(options.fetch, wsUrl, token, PROOF_TIMEOUT_MS),
    pairing,
    log,
    random: options.random ?? Math.random,
    now,
    clientInfo: async () => ({
      kind: 'extension' as const,
      name: options.clientName(),
      version,
      ...(options.userAgent ? { userAgent: options.userAgent.slice(0, 512) } : {}),
    }),
    onRequest: (request, reply) => {
      void executor.handle(request).then((response) => {
        if (response) reply(response);
      });
    },
    // hostPairing is built right below; the connection only reports after its first attempt.
    onProofFailed: (outcome) => hostPairing.onProofFailed(outcome),
    onPush: (message) => {
      if (message.type === 'tab_released') {
        log.info('tab_released', { tabId: message.tabId });
        tabs.delete(message.tabId);
        void dialogs.detach(message.tabId);
      }
      browserView.onPush(message);
    },
  });

  const hostPairing = new HostPairing({ host, pairing, connection, log, now, fetch: options.fetch });
  hostPairing.install();

  /** The user's "Share this tab": the tab joins a session the daemon makes, and is driven from now on. */
  const share = async (tabId: number): Promise<PanelAnswer> => {
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

  nav.install(chrome);
  dialogs.install();
  installPushes(chrome, tabs, connection, now);
  opened.install(chrome, connection);

  const wake = () => {
    connection.ensureConnected();
    // Connecting to the host (once, or again after a pause when it was missing) syncs the daemon's
    // port and pairs an unpaired browser; a connected host costs nothing here.
    void host.ensure();
  };
  chrome.runtime.onStartup.addListener(wake);
  chrome.runtime.onInstalled.addListener(wake);
  chrome.alarms.onAlarm.addListener(wake);
  // The alarm is the wake path of last resort: a worker stopped while the daemon was down restarts within 30 s.
  void Promise.resolve(chrome.alarms.create(KEEPALIVE_ALARM, { periodInMinutes: 0.5 })).catch(
    (error: unknown) => log.warn('alarm_failed', { error: messageOf(error) }),
  );

  const status = (): WorkerStatus => ({
    ...connection.status(),
    host: host.status(),
    autoPairing: hostPairing.status(),
    drivenTabs: tabs.size,
    inFlight: table.inFlightCount,
    version,
  });

  const panels = new PanelRelay({
    chrome,
    log,
    connection,
    host,
    view: browserView,
    share,
    isDriven: (tabId) => tabs.has(tabId),
  });
  panels.install();

  chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
    if (!fromOwnPage(sender, chrome.runtime.id, ['/popup.html'])) return undefined;
    // The popup opened as a page in a tab an agent drives is not the user's: it may not share or unpair.
    if (inDrivenTab(sender, (tabId) => tabs.has(tabId))) {
      log.warn('popup_in_driven_tab', { tabId: sender.tab?.id });
      return undefined;
    }
    const parsed = PopupMessageSchema.safeParse(message);
    if (!parsed.success) return undefined;
    const msg = parsed.data;
    wake();
    if (msg.type === 'status') {
      sendResponse(status());
      return undefined;
    }
    if (msg.type === 'share') {
      void share(msg.tabId).then((answer) =>
        sendResponse(
          (answer.ok && answer.result.kind === 'share_tab'
            ? { ok: true, session: answer.result.shared.session, tab: answer.result.shared.tab }
            : {
                ok: false,
                reason: answer.ok ? 'the daemon answered something else' : answer.reason,
              }) satisfies ShareAnswer,
        ),
      );
      return true;
    }
    if (msg.type === 'unpair') {
      void pairing.forget().then(() => {
        connection.restart();
        sendResponse({ ok: true } satisfies PairAnswer);
      });
      return true;
    }
    void pairing.accept(msg.bootstrap, now()).then((result) => {
      if (result.ok) {
        log.info('paired', { wsUrl: result.pairing.wsUrl });
        connection.restart();
        sendResponse({ ok: true } satisfies PairAnswer);
      } else {
        log.warn('pairing_refused', { reason: result.reason });
        sendResponse({ ok: false, reason: result.reason } satisfies PairAnswer);
      }
    });
    return true; // answered asynchronously
  });

  log.info('worker_started', { version, protocolVersion: PROTOCOL_VERSION });
  wake();
  return { connection, host, executor, log, status };
}
