/**
 * Builds the worker from a ChromeApi: the driver, the daemon link and the host link (each its own
 * folder and constructor), then wires every platform listener. Listeners are added synchronously, in
 * the first turn of the worker's script: a worker woken by an event only receives that event if its
 * listener exists by then. Each wake path ends in ensureConnected().
 */
import { PROTOCOL_VERSION } from '@bproxy/protocol';
import type { ChromeApi } from '../chrome-api';
import type { WorkerStatus } from '../common/messages';
import type { Connection } from './daemon/connection';
import { createDaemonLink } from './daemon/daemon-link';
import type { FetchLike } from './daemon/daemon-proof';
import { installPopupRelay } from './daemon/popup-relay';
import type { SocketFactory } from './daemon/socket';
import type { DriverContext } from './driver/context';
import { createDriver } from './driver/driver';
import { messageOf } from './driver/errors';
import type { Executor } from './driver/executor';
import { createHostLink } from './host/host-link';
import type { NativeHost } from './host/native-host';
import { WorkerLog } from './log';
import { welcomer } from './welcome';

export const KEEPALIVE_ALARM = 'bproxy-keepalive';

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

/** Browser start-up, install and the keep-alive alarm each wake the worker's links. */
function installWakePaths(chrome: ChromeApi, log: WorkerLog, wake: () => void): void {
  chrome.runtime.onStartup.addListener(wake);
  chrome.runtime.onInstalled.addListener(wake);
  chrome.alarms.onAlarm.addListener(wake);
  // The alarm is the wake path of last resort: a worker stopped while the daemon was down restarts within 30 s.
  void Promise.resolve(chrome.alarms.create(KEEPALIVE_ALARM, { periodInMinutes: 0.5 })).catch(
    (error: unknown) => log.warn('alarm_failed', { error: messageOf(error) }),
  );
}

export function startWorker(options: WorkerOptions): Worker {
  const { chrome } = options;
  const now = options.now ?? Date.now;
  const log = new WorkerLog(500, now);
  const version = chrome.runtime.getManifest().version;
  const driver = createDriver({ chrome, log, now, imageSize: options.imageSize });
  const daemon = createDaemonLink({
    ...options,
    log,
    now,
    random: options.random ?? Math.random,
    version,
    driver,
    // The host link is built right below; the connection only reports after its first attempt.
    onProofFailed: (outcome) => host.pairing.onProofFailed(outcome),
  });
  const host = createHostLink({
    chrome,
    log,
    now,
    version,
    fetch: options.fetch,
    daemon,
    isDriven: (tabId) => driver.tabs.has(tabId),
  });
  // The first pairing of this profile opens the welcome page, before the link restarts on it.
  daemon.pairing.onAccepted(welcomer(chrome, log, now));
  driver.install(daemon.connection);
  daemon.install();
  host.install();

  const wake = () => {
    daemon.connection.ensureConnected();
    // Connecting to the host (once, or again after a pause when it was missing) syncs the daemon's
    // port and pairs an unpaired browser; a connected host costs nothing here.
    void host.host.ensure();
  };
  installWakePaths(chrome, log, wake);
  const status = (): WorkerStatus => ({
    ...daemon.connection.status(),
    host: host.host.status(),
    autoPairing: host.pairing.status(),
    drivenTabs: driver.tabs.size,
    debuggerTabs: driver.debuggerTabs(),
    inFlight: driver.inFlight(),
    version,
  });
  installPopupRelay({
    chrome,
    log,
    now,
    pairing: daemon.pairing,
    connection: daemon.connection,
    share: daemon.share,
    startDaemon: () => host.pairing.startDaemon(),
    isDriven: (tabId) => driver.tabs.has(tabId),
    sessionOf: (tabId) => {
      for (const held of daemon.view.sessions) {
        const tab = held.tabs.find((t) => t.tabId === tabId);
        if (tab) return { session: held.info.session, tab: tab.tab, paused: held.info.paused };
      }
      return null;
    },
    status,
    wake,
  });

  log.info('worker_started', { version, protocolVersion: PROTOCOL_VERSION });
  wake();
  return { connection: daemon.connection, host: host.host, executor: driver.executor, log, status };
}
