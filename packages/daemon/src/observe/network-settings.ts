/**
 * The user's settings for the network read, in BPROXY_HOME/network.json — never an agent's param:
 * `revealSecrets` (true: network get and network har show credential headers as they are). Where
 * network har may write is not set here but by the one rule of files/allowed-folders.ts. A file that
 * another user could have written (not a regular file, not the daemon user's, writable by group or
 * others) or that does not parse is ignored, and the default stays: redacted.
 */
import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface NetworkSettings {
  readonly revealSecrets: boolean;
}

export const DEFAULT_NETWORK_SETTINGS: NetworkSettings = { revealSecrets: false };

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
  const p = parsed as { revealSecrets?: unknown };
  return { revealSecrets: p.revealSecrets === true };
}

function refuse(warn: (why: string) => void, why: string): NetworkSettings {
  warn(`${NETWORK_SETTINGS_FILE} ignored: ${why}`);
  return DEFAULT_NETWORK_SETTINGS;
}
