/**
 * What the worker tells its popup about its two links: the connection to the daemon, the native host
 * port and the last automatic pairing through the host. Plain types, shared by the worker and the popup.
 */

export type ConnectionState = 'idle' | 'unpaired' | 'connecting' | 'connected' | 'waiting' | 'stopped';

export interface ConnectionStatus {
  state: ConnectionState;
  paired: boolean;
  /** How the current pairing was made: a code the user typed, or the native host. */
  pairedVia: 'code' | 'host' | null;
  wsUrl: string | null;
  /** Why the last attempt or connection ended, in words for people. */
  lastError: string | null;
  /** Set when retrying is pointless until something changes (protocol mismatch, revoked token). */
  stopReason: string | null;
  connectedAt: number | null;
  attempts: number;
}

export type HostState =
  /** Not tried yet, or waiting to try again. */
  | 'idle'
  | 'connecting'
  | 'connected'
  /** Chrome found no host registered under our name: `bproxy setup` installs it. */
  | 'missing'
  /** The host is registered but not for this extension's origin. */
  | 'forbidden'
  /** It started and went away (crashed, wrong version, refused us). */
  | 'failed';

export interface HostStatus {
  state: HostState;
  hostVersion: string | null;
  lastError: string | null;
  /** The absolute path of the CLI launcher the host wrote (the popup's command line uses it). */
  cli?: string;
}

export type AutoPairState =
  | { state: 'idle' }
  | { state: 'pairing' }
  | { state: 'paired'; at: number }
  | { state: 'failed'; reason: string; at: number };
