/**
 * @bproxy/client — the one way to talk to a bproxy daemon: find it in BPROXY_HOME (state files checked
 * for owner, mode and symlinks), start it when asked, send an action in the request envelope and read
 * the answer. Zod-free and free of any command-line code, so that a program's action path loads this
 * and nothing else. Starting and stopping live in `@bproxy/client/service`; the state directory
 * contract, shared with the daemon, in `@bproxy/client/lifecycle`.
 */
export {
  readAnswer,
  requestEnvelope,
  settleAnswer,
  type Answer,
  type DaemonError,
  type RequestEnvelope,
} from './answer';
export { DaemonClient, type CallOptions, type DaemonClientOptions } from './daemon-client';
export { ClientError, isClientError, type ClientErrorCode } from './errors';
export { findDaemon, type DaemonEndpoint } from './find-daemon';
export { resolveHome, type Env } from './lifecycle/config';
export { isLifecycleError } from './lifecycle/errors';
export { statePaths } from './lifecycle/paths';
export { ensurePrivateFolder, writeNewPrivateFile } from './lifecycle/private-folder';
export { newRequestId } from './request-id';
export { TERMINAL_VAR, currentTerminalSession } from './lifecycle/terminal-session';
