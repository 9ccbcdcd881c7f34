/**
 * `@bproxy/client/service` — starting, stopping and inspecting the daemon of BPROXY_HOME, as
 * `bproxy service start|stop|status` do and as long-lived clients start it implicitly. Loads the
 * protocol schemas (the outputs are checked): keep it off the action path.
 */
export { startDaemon, type StartOptions, type StartOutput } from './start';
export { daemonStatus, type StatusOutput } from './status';
export { stopDaemon, type StopOutput } from './stop';
