import type { DaemonMessage, DriverMessage, MessageTransport } from '@bproxy/protocol';
import type { Logger } from './logs/logger';
import type { NetworkSettings } from './observe/network-settings';
import type { PolicySource } from './policy/site-policy';
import type { SecretReader } from './actions/secret-fill';

/** The daemon's end of a driver connection (WebSocket or in-process). */
export type DriverLink = MessageTransport<DriverMessage, DaemonMessage>;

/** What a launcher's start hands the daemon: its end of the driver's link, and how to end the browser. */
export interface StartedBrowser {
  readonly link: DriverLink;
  /**
   * Ends the browser (closing its driver, unless that is under way already) and resolves once it is
   * gone: for a browser the launcher started, its process exited and its profile folder removed. The
   * daemon awaits it on shutdown, within a bound.
   */
  stop(): Promise<void>;
}

/** Where the active extension token lives; the file implementation persists it 0600 (lifecycle). */
export interface ExtensionTokenStore {
  /** The active token, or null before the first pairing. */
  get(): string | null;
  /** Replaces the active token (single active token); must persist before resolving. */
  set(token: string): Promise<void>;
}

/**
 * What the daemon may do with a browser it starts:
 * - `launched`: its own (the embedded Chromium): closed after the browser-idle period with no tab,
 *   launched again on the next tab open;
 * - `attached`, `remote`: someone else's browser, one connection shared by every session: never closed;
 * - `per-session`: a remote endpoint that hands out a browser per connection (a farm): each session gets
 *   its own, opened on its first tab open and closed with the session (or when idle), at most
 *   `maxBrowsers` at once.
 */
export type LauncherKind = 'launched' | 'attached' | 'remote' | 'per-session';

interface LauncherBase {
  /** A readable name for `debug.status` and `--browser`, e.g. "headless". */
  readonly name: string;
  /** Starts (or connects to) the browser: the daemon's end of its driver's link, and its stop. */
  start(options: LaunchOptions): Promise<StartedBrowser>;
  /**
   * `launched` only: its tabs may load file: URLs (`--allow-file-urls`). Never honoured for another
   * kind: an attached, remote or farm browser, like the user's own Chrome, opens no local files.
   */
  readonly allowFileUrls?: boolean;
}

/** One browser the daemon can start on demand (per-session: one per session, up to a cap). */
export type BrowserLauncher =
  | (LauncherBase & { readonly kind: Exclude<LauncherKind, 'per-session'> })
  | (LauncherBase & { readonly kind: 'per-session'; readonly maxBrowsers: number });

export interface LaunchOptions {
  /** The client name the driver says hello with (per-session: one per session). */
  name: string;
  /** A fresh identity: per-session browsers are distinct clients of one endpoint. */
  instanceId?: string;
  /** Longest the connection may take: remote endpoints get the request's time left (a farm may queue). */
  connectTimeoutMs: number;
}

export interface ServerOptions {
  /** Port from the configuration; 0 means "any": the gate then uses the port actually bound. */
  port: number;
  host?: '127.0.0.1';
  daemonToken: string;
  /**
   * Chrome extension ids whose Origin is accepted (exact match): the trusted set, or a function that
   * answers it at each gate decision (the lifecycle's, which follows BPROXY_HOME/extensions.json).
   */
  extensionIds: readonly string[] | (() => readonly string[]);
  extensionTokens: ExtensionTokenStore;
  logger: Logger;
  /** Directory under which `session.create` makes each session's tmpDir. */
  tmpRoot: string;
  /**
   * Folders an agent may upload files from besides its session's own (files.json, `service start
   * --allow-files`); absent: the session's folder only.
   */
  allowedFolders?: readonly string[];
  /** Largest file an upload may hand a page (default 100 MiB). */
  uploadMaxBytes?: number;
  /** Largest download kept (default 100 MiB); the launched browser's driver is given the same cap. */
  downloadMaxBytes?: number;
  /** The user's settings for the network read (BPROXY_HOME/network.json); default: redacted, session folder only. */
  networkSettings?: NetworkSettings;
  /** The site policy (BPROXY_HOME/policy.json, read again when it changes); absent: every origin allowed. */
  sitePolicy?: PolicySource;
  /** Reads a secret of the user's store for `fill --secret` (BPROXY_HOME/secrets.json); absent: none. */
  secrets?: SecretReader;
  /** Called after a pairing code was consumed (the lifecycle removes pairing.json). */
  onPairingConsumed?: () => void;
  /** Browsers started on first use when no extension is connected (the embedded headless one first). */
  launchers?: BrowserLauncher[];
  /** How long a browser the daemon opened may have no tab before it is closed; default null (never). */
  browserIdleMs?: number | null;
  /** Told to extensions in their welcome: the debugger leaves a tab idle this long (null/absent: never). */
  debuggerIdleMs?: number | null;
  /**
   * Present for an implicitly started daemon: `onIdle` is called once no agent request has arrived or
   * been in flight for `afterMs` (null: never); the lifecycle then stops the daemon as `service stop`
   * would. Absent: the daemon stays until stopped.
   */
  idleExit?: { afterMs: number | null; onIdle(idleMs: number): void };
  /** Test seams; production uses the defaults. */
  clock?: { now(): number; monotonic(): number };
  random?: () => number;
  pacingOverride?: 'human' | 'fast';
  /** How long a request waits for a disconnected driver to come back (default 15 s). */
  reconnectGraceMs?: number;
  /** Transport heartbeat interval for WS clients (default 20 s). */
  heartbeatMs?: number;
  /** Longest shutdown waits for the browsers it started to be gone (default 5 s); then it logs and returns. */
  browserStopMs?: number;
  /** How long completed answers are kept for retries by id (default 10 min; the soak shortens it). */
  answerRetentionMs?: number;
}
