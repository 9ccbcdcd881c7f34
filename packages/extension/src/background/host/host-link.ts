/**
 * The host link's constructor: the one native port (native-host.ts), pairing and the daemon's
 * whereabouts through the host (host-pairing.ts), and the side panels' relay with its chat and terminal
 * routing (panel-relay.ts). It builds on the daemon link: the relay asks the daemon on the user's
 * behalf, and the host's pairing restarts the connection.
 */
import type { ChromeApi } from '../../chrome-api';
import type { DaemonLink } from '../daemon/daemon-link';
import type { FetchLike } from '../daemon/daemon-proof';
import type { WorkerLog } from '../log';
import { HostPairing } from './host-pairing';
import { NativeHost } from './native-host';
import { PanelRelay } from './panel-relay';

export interface HostLinkOptions {
  chrome: ChromeApi;
  log: WorkerLog;
  now: () => number;
  version: string;
  fetch: FetchLike;
  daemon: Pick<DaemonLink, 'connection' | 'pairing' | 'view' | 'share'>;
  /** Whether bproxy drives this tab: the panel page loaded in such a tab is refused. */
  isDriven(tabId: number): boolean;
}

export interface HostLink {
  host: NativeHost;
  pairing: HostPairing;
  /** Wires the host's messages and the panels' port; call in the worker's first turn. */
  install(): void;
}

export function createHostLink(opts: HostLinkOptions): HostLink {
  const { chrome, log, now, daemon } = opts;
  const host = new NativeHost({ chrome, log, extensionVersion: opts.version, now });
  const pairing = new HostPairing({
    host,
    pairing: daemon.pairing,
    connection: daemon.connection,
    log,
    now,
    fetch: opts.fetch,
  });
  const panels = new PanelRelay({
    chrome,
    log,
    connection: daemon.connection,
    host,
    view: daemon.view,
    share: daemon.share,
    startDaemon: () => pairing.startDaemon(),
    isDriven: (tabId) => opts.isDriven(tabId),
  });
  return {
    host,
    pairing,
    install() {
      pairing.install();
      panels.install();
    },
  };
}
