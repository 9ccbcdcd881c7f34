/**
 * @bproxy/bridge — a stand-in Chrome for CDP tools (chrome-devtools-mcp, Playwright, Puppeteer) that
 * relays their CDP to a real browser elsewhere: this machine's, Windows Chrome from WSL, or a remote
 * DevTools endpoint; attaching to the profile's browser or launching one, and surviving its loss.
 */
export { bridgeMain } from './main';
export { runBridge, type BridgeIo } from './run-bridge';
