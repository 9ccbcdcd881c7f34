/**
 * `@bproxy/daemon` — the daemon as a library: `buildServer(opts)` (pure: no environment, no files) and
 * the logger it is handed. The process around it (state files, signals, browsers) is
 * `@bproxy/daemon/lifecycle`; the zod-free part the CLI loads on every run is `…/lifecycle/plain`.
 */
export { buildServer, type DaemonServer, type IssuedPairingCode } from './http/server';
export type {
  BrowserLauncher,
  DriverLink,
  ExtensionTokenStore,
  ServerOptions,
  StartedBrowser,
} from './server-options';
export { createLogger, type Logger, type LoggerOptions } from './logs/logger';
