/**
 * @bproxy/native-host — the native messaging host `com.bproxy.host` that Chromium-family browsers
 * start for the extension: Chrome's framing, the caller-origin gate, host.log, the daemon locator and
 * zero-touch pairing, and the hand-off of chats and terminals to their handlers. Registration with
 * the browsers lives in `@bproxy/native-host/registration`.
 */
export {
  createDaemonAccess,
  type DaemonAccess,
  type DaemonAccessOptions,
  type DaemonLocation,
  type DaemonState,
  type IssuedPairing,
} from './daemon/daemon-access';
export { watchDaemon, type DaemonWatch, type DaemonWatchOptions } from './daemon/daemon-watch';
export { HostFailure } from './failure';
export { FrameDecoder, encodeFrame, frameHeader, type FrameEvent } from './framing';
export {
  NO_AGENT,
  NO_TERMINAL,
  type AgentMessage,
  type Emit,
  type HandlerContext,
  type HandlerFactory,
  type OutputFlow,
  type PortHandler,
  type TerminalMessage,
} from './handlers';
export {
  HOST_LOG_MAX_BYTES,
  HostLogFile,
  SILENT_LOG,
  hostDir,
  type HostLog,
  type LogFields,
} from './host-log';
export { hostMain, type HostMainOptions } from './main';
export { checkCaller, extensionOrigin } from './origin';
export { runHost, type RunHostOptions } from './run-host';
export { takeStdout } from './stdout-guard';
export { TERMINAL_COMMAND_VAR } from './terminal/terminal-command';
export { TerminalHandler, terminalHandler, type TerminalOptions } from './terminal/terminal-handler';
