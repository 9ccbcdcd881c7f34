/**
 * @bproxy/cdp — the CDP browser driver: launches, attaches to or connects to a Chromium and serves the
 * daemon over a MessageTransport exactly like the extension does over its WebSocket.
 */
import type { CdpDriverOptions } from './options';
import { CdpDriver, type DaemonLink } from './driver/cdp-driver';
import type { LogEntry } from './driver/driver-log';
import { loadPageBundle } from './page-bundle';

export type { CdpDriverOptions, CdpMode } from './options';
export type { DaemonLink } from './driver/cdp-driver';
export type { LogEntry } from './driver/driver-log';
export { CdpDriver } from './driver/cdp-driver';
export { findChrome, chromeCandidates } from './browser/find-chrome';
export { readDevToolsActivePort, resolveBrowserWsUrl } from './browser/endpoint';
export { CLOSE_BOUNDS } from './browser/launch';
export { loadPageBundle } from './page-bundle';

/**
 * Starts the browser (or connects to it), says hello on `transport`, and serves requests until
 * `close()` or until the daemon closes the transport. Rejects when no browser can be reached.
 */
export async function startCdpDriver(
  options: CdpDriverOptions,
  transport: DaemonLink,
  extra: { onLog?: (entry: LogEntry) => void } = {},
): Promise<CdpDriver> {
  const bundle = options.pageScript ?? (await loadPageBundle());
  const driver = new CdpDriver(options, transport, bundle, extra.onLog);
  try {
    await driver.start();
  } catch (error) {
    await driver.close();
    throw error;
  }
  return driver;
}
