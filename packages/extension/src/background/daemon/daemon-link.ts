/**
 * The daemon link's constructor: the stored pairing, the connection (proof first, then the WebSocket),
 * what the daemon pushes unasked (a released tab, the sessions and activity the browser view shows),
 * the driver's pushes about driven tabs, and sharing a tab. Requests from the daemon go to the driver's
 * executor; the link knows nothing of the host link, which builds on it.
 */
import type { ChromeApi } from '../../chrome-api';
import type { Driver } from '../driver/driver';
import type { WorkerLog } from '../log';
import { BrowserView } from './browser-view';
import { browserRun } from './browser-run';
import { Connection } from './connection';
import { proveDaemon, type FetchLike, type ProofOutcome } from './daemon-proof';
import { PairingStore, randomInstanceId } from './pairing-state';
import { installPushes } from './pushes';
import { shareTab, type ShareFn } from './share-tab';
import type { SocketFactory } from './socket';

/** How long the daemon has to answer the proof challenge before the attempt counts as failed. */
const PROOF_TIMEOUT_MS = 5_000;

export interface DaemonLinkOptions {
  chrome: ChromeApi;
  log: WorkerLog;
  now: () => number;
  random: () => number;
  version: string;
  socketFactory: SocketFactory;
  fetch: FetchLike;
  clientName: () => string;
  userAgent?: string;
  driver: Pick<Driver, 'executor' | 'tabs' | 'release' | 'setDebuggerIdle' | 'guard' | 'setDownloadCap'>;
  /** The server on the paired port did not prove itself (the host link may know better). */
  onProofFailed: (outcome: Extract<ProofOutcome, { ok: false }>) => void;
}

export interface DaemonLink {
  connection: Connection;
  pairing: PairingStore;
  view: BrowserView;
  share: ShareFn;
  /** Wires the pushes about driven tabs; call in the worker's first turn. */
  install(): void;
}

export function createDaemonLink(opts: DaemonLinkOptions): DaemonLink {
  const { chrome, log, now, driver } = opts;
  const pairing = new PairingStore(chrome.storage.local, randomInstanceId);
  const view = new BrowserView(chrome, log);
  // After the daemon came back, the debugger leaves the tabs no session holds any more.
  view.onOrphans = (held) => {
    for (const tabId of driver.tabs.list()) {
      if (held.has(tabId)) continue;
      log.info('tab_orphaned', { tabId });
      driver.release(tabId);
    }
  };
  const connection = new Connection({
    socketFactory: opts.socketFactory,
    prove: (wsUrl, token) => proveDaemon(opts.fetch, wsUrl, token, PROOF_TIMEOUT_MS),
    pairing,
    log,
    random: opts.random,
    now,
    clientInfo: async () => {
      const run = await browserRun(chrome.storage.session);
      return {
        kind: 'extension' as const,
        name: opts.clientName(),
        version: opts.version,
        ...(opts.userAgent ? { userAgent: opts.userAgent.slice(0, 512) } : {}),
        ...(run === undefined ? {} : { run }),
      };
    },
    onRequest: (request, reply) => {
      void driver.executor.handle(request).then((response) => {
        if (response) reply(response);
      });
    },
    onProofFailed: (outcome) => opts.onProofFailed(outcome),
    onDown: () => view.linkDown(),
    onWelcome: (settings) => {
      driver.setDebuggerIdle(settings.debuggerIdleMs);
      driver.setDownloadCap(settings.downloadMaxBytes);
    },
    onPush: (message) => {
      if (message.type === 'tab_released') {
        log.info('tab_released', { tabId: message.tabId });
        driver.release(message.tabId);
      }
      if (message.type === 'nav_guard') void driver.guard.set(message.policy);
      else view.onPush(message);
    },
  });
  const share = shareTab({ chrome, connection, tabs: driver.tabs, log });
  // What the user had shared is shared again when the daemon comes back without it: the tab keeps an
  // agent's session (a new one) instead of saying it lost it. One that cannot be shared stays lost.
  view.onLost = (tabIds) => {
    for (const tabId of tabIds)
      void share(tabId).then((answer) => {
        if (!answer.ok) log.info('tab_reshare_failed', { tabId, reason: answer.reason.slice(0, 200) });
        else log.info('tab_reshared', { tabId });
      });
  };
  return {
    connection,
    pairing,
    view,
    share,
    install: () => {
      installPushes(chrome, driver.tabs, connection, now);
      view.install();
    },
  };
}
