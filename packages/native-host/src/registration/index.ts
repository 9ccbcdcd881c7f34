/**
 * `@bproxy/native-host/registration` — registering the host with the browsers (`bproxy host
 * install|uninstall|status`). Kept apart from the host process: the CLI loads this and nothing of
 * the port.
 */
export { BROWSERS, BROWSER_IDS, type BrowserSpec } from './browsers';
export {
  hostFiles,
  hostLocation,
  isInstalled,
  registrationContext,
  type ContextOptions,
  type HostFiles,
  type HostLocation,
  type RegistrationContext,
  type RegistrationPlatform,
} from './context';
export { RegistrationError, installHost, type InstallOptions, type InstallReport } from './install';
export { launcherText, readLauncher, type LauncherSpec } from './launcher';
export { buildManifest, type HostManifest } from './manifest';
export { hostVersionProblem, probeLauncher, type ProbeOptions, type ProbeResult } from './probe';
export { readRecord, type InstallRecord, type RecordEntry } from './record';
export { hostStatus, type BrowserStatus, type StatusOptions, type StatusReport } from './status';
export {
  uninstallHost,
  type UninstallOptions,
  type UninstallOutcome,
  type UninstallReport,
} from './uninstall';
export { systemRegistry, type RegistryResult, type RegistryRunner } from './windows-registry';
// The side panel Terminal's choice of program, for `bproxy doctor` (read only).
export {
  TERMINAL_COMMAND_VAR,
  isExecutableFile,
  onPath,
  terminalCommand,
} from '../terminal/terminal-command';
