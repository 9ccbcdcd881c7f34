/**
 * The `port` file: written last at startup, so a valid port in it (with a live daemon) means ready.
 * It is checked like the token: a port file another user could write would point the CLI, bearer
 * token in hand, at a listener of their choosing.
 */
import type { StatePaths } from './paths';
import { readStateFile, writeStateFileAtomic } from './secure-file';

export function parsePortFile(raw: string): number | null {
  const match = /^([0-9]{1,5})\n?$/.exec(raw);
  if (match === null) return null;
  const port = Number(match[1]);
  return port >= 1 && port <= 65535 ? port : null;
}

export function writePortFile(paths: StatePaths, port: number): void {
  writeStateFileAtomic(paths.port, `${port}\n`);
}

/** The bound port, or null when the file is missing or does not hold one. Throws when unsafe. */
export function readPortFile(paths: StatePaths): number | null {
  const raw = readStateFile(paths.port);
  return raw === null ? null : parsePortFile(raw);
}
