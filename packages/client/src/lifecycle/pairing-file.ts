/**
 * pairing.json: what `service start` prints about the current pairing code. Written by the daemon
 * (atomically, 0600) before the port file, removed when the code is claimed and at shutdown; the
 * starting parent only reads it.
 */
import { PairingFileSchema, type PairingFile } from '@bproxy/protocol';
import { LifecycleError } from './errors';
import type { StatePaths } from './paths';
import { readStateFile, writeStateFileAtomic } from './secure-file';

export interface IssuedCode {
  readonly code: string;
  readonly issuedAt: number;
  readonly expiresAt: number;
}

export function writePairingFile(paths: StatePaths, issued: IssuedCode): void {
  const file: PairingFile = {
    pairingCode: issued.code,
    pairingExpiresAt: issued.expiresAt,
    issuedAt: issued.issuedAt,
  };
  writeStateFileAtomic(paths.pairing, `${JSON.stringify(file)}\n`);
}

/** The pairing metadata, or null when there is none (claimed, or the daemon is not running). */
export function readPairingFile(paths: StatePaths): PairingFile | null {
  const raw = readStateFile(paths.pairing);
  if (raw === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new LifecycleError('failed', `${paths.pairing} is not valid JSON`);
  }
  const parsed = PairingFileSchema.safeParse(json);
  if (!parsed.success)
    throw new LifecycleError('failed', `${paths.pairing} does not match the pairing file format`);
  return parsed.data;
}
