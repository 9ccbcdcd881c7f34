import type { DaemonMessage, DriverMessage, MessageTransport } from '@bproxy/protocol';
import type { Logger } from './logger';

/** The daemon's end of a driver connection (WebSocket or in-process). */
export type DriverTransport = MessageTransport<DriverMessage, DaemonMessage>;

/** Where the active extension token lives; the file implementation persists it 0600 (lifecycle). */
export interface ExtensionTokenStore {
  /** The active token, or null before the first pairing. */
  get(): string | null;
  /** Replaces the active token (single active token); must persist before resolving. */
  set(token: string): Promise<void>;
}

/** Options of the embedded/attached/remote CDP browsers the daemon can start on demand. */
export interface BrowserLauncher {
  /** A readable name for `debug.status` and `--browser`, e.g. "headless". */
  readonly name: string;
  /** Starts (or reconnects to) the browser and returns the daemon's end of its driver transport. */
  start(): Promise<DriverTransport>;
}

export interface ServerOptions {
  /** Port from the configuration; 0 means "any": the gate then uses the port actually bound. */
  port: number;
  host?: '127.0.0.1';
  daemonToken: string;
  /** Chrome extension id whose Origin is accepted (exact match). */
  extensionId: string;
  extensionTokens: ExtensionTokenStore;
  logger: Logger;
  /** Directory under which `session.create` makes each session's tmpDir. */
  tmpRoot: string;
  /** Called after a pairing code was consumed (the lifecycle removes pairing.json). */
  onPairingConsumed?: () => void;
  /** Browsers started on first use when no extension is connected (the embedded headless one first). */
  launchers?: BrowserLauncher[];
  /** Test seams; production uses the defaults. */
  clock?: { now(): number; monotonic(): number };
  random?: () => number;
  pacingOverride?: 'human' | 'fast';
  /** How long a request waits for a disconnected driver to come back (default 15 s). */
  reconnectGraceMs?: number;
  /** Transport heartbeat interval for WS clients (default 20 s). */
  heartbeatMs?: number;
  /** How long completed answers are kept for retries by id (default 10 min; the soak shortens it). */
  answerRetentionMs?: number;
}
