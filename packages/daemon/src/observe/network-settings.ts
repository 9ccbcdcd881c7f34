/**
 * The user's settings for the network read, in BPROXY_HOME/network.json — never an agent's param:
 * `revealSecrets` (true: network get and network har show credential headers as they are) and
 * `harFolders` (absolute folders besides the session's own where network har may write). A file that
 * another user could have written (not a regular file, not the daemon user's, writable by group or
 * others) or that does not parse is ignored, and the defaults stay: redacted, the session's folder only.
 */
import { lstatSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

export interface NetworkSettings {
  readonly revealSecrets: boolean;
  readonly harFolders: readonly string[];
}

export const DEFAULT_NETWORK_SETTINGS: NetworkSettings = { revealSecrets: false, harFolders: [] };

export const NETWORK_SETTINGS_FILE = 'network.json';

export function readNetworkSettings(
  home: string,
  warn: (why: string) => void = () => undefined,
): NetworkSettings {
  const file = join(home, NETWORK_SETTINGS_FILE);
  let raw: string;
  try {
    const st = lstatSync(file);
    if (!st.isFile()) return refuse(warn, 'it is not a regular file');
    if (typeof process.getuid === 'function' && st.uid !== process.getuid())
      return refuse(warn, 'another user owns it');
    if ((st.mode & 0o022) !== 0) return refuse(warn, 'group or others may write it');
    raw = readFileSync(file, 'utf8');
  } catch {
    return DEFAULT_NETWORK_SETTINGS;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return refuse(warn, 'it is not JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return refuse(warn, 'it is not an object');
  const p = parsed as { revealSecrets?: unknown; harFolders?: unknown };
  const folders = Array.isArray(p.harFolders)
    ? p.harFolders.filter((f): f is string => typeof f === 'string' && isAbsolute(f))
    : [];
  return { revealSecrets: p.revealSecrets === true, harFolders: folders };
}

function refuse(warn: (why: string) => void, why: string): NetworkSettings {
  warn(`${NETWORK_SETTINGS_FILE} ignored: ${why}`);
  return DEFAULT_NETWORK_SETTINGS;
}
