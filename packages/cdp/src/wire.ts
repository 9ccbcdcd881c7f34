/**
 * @bproxy/cdp/wire — the lower half of the CDP package, for programs that relay CDP rather than
 * drive pages (the bridge): the two transports (pipe, WebSocket), finding a browser binary and
 * resolving a DevTools endpoint. Nothing here knows about tabs, actions or the daemon.
 */
export type { CdpTransport } from './cdp/transport';
export { createPipeTransport } from './cdp/pipe-transport';
export { connectWebSocket, redact } from './cdp/ws-transport';
export { findChrome } from './browser/find-chrome';
export { fetchBrowserWsUrl, parseDevToolsActivePort, resolveBrowserWsUrl } from './browser/endpoint';
