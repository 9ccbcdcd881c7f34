/**
 * The state directory's layout (BPROXY_HOME). One place names every file, so the daemon, `service
 * stop` and the stale-state cleanup cannot disagree about what is transient.
 */
import { join } from 'node:path';

export interface StatePaths {
  readonly home: string;
  /** Lockfile holding the daemon's PID; created exclusively by the daemon itself. */
  readonly pid: string;
  /** The bound port; its presence with a valid number is the readiness signal. */
  readonly port: string;
  /** The daemon bearer token for CLI → daemon calls (0600, rotated at every start). */
  readonly token: string;
  /** The active extension token; survives restarts and `service stop`. */
  readonly extensionToken: string;
  /** Pairing metadata for `service start` output (0600, transient). */
  readonly pairing: string;
  /** The extension ids trusted besides the built-in ones (0600; see extension-ids.ts). */
  readonly extensions: string;
  /** The folders agents may upload files from, a setting a person edits (`{ "allow": [...] }`; see files-config.ts). */
  readonly files: string;
  /** The site policy, a setting only a person writes (see policy-store.ts). */
  readonly policy: string;
  /** Guard taken while a stale lockfile is removed, so two starters cannot both take over. */
  readonly takeover: string;
  readonly logs: string;
  /** Parent of the per-session temporary directories. */
  readonly tmp: string;
  /** Where the CLI writes screenshots taken without --out (0700, files 0600; see private-folder.ts). */
  readonly screenshots: string;
}

export function statePaths(home: string): StatePaths {
  return {
    home,
    pid: join(home, 'bproxy.pid'),
    port: join(home, 'port'),
    token: join(home, 'token'),
    extensionToken: join(home, 'extension-token'),
    pairing: join(home, 'pairing.json'),
    extensions: join(home, 'extensions.json'),
    files: join(home, 'files.json'),
    policy: join(home, 'policy.json'),
    takeover: join(home, 'bproxy.pid.takeover'),
    logs: join(home, 'logs'),
    tmp: join(home, 'tmp'),
    screenshots: join(home, 'screenshots'),
  };
}

/** Files that describe one running daemon; `stop` and stale cleanup remove them, never extension-token. */
export function transientFiles(paths: StatePaths): string[] {
  return [paths.pairing, paths.port, paths.token];
}
