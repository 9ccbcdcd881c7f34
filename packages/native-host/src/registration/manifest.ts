/**
 * The host manifest Chrome reads: our name, the absolute launcher path, stdio, and exactly one
 * allowed origin — our extension's. Reading one back says what is wrong with it in words `status`
 * prints, so a stale registration (moved launcher, another extension id) is named, not guessed at.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { NATIVE_HOST_NAME } from '@bproxy/protocol';
import { extensionOrigin } from '../origin';

export interface HostManifest {
  readonly name: string;
  readonly description: string;
  readonly path: string;
  readonly type: 'stdio';
  readonly allowed_origins: readonly string[];
}

export function buildManifest(launcher: string, extensionId: string): HostManifest {
  return {
    name: NATIVE_HOST_NAME,
    description: 'bproxy native host: finds or starts the bproxy daemon and pairs the extension with it',
    path: launcher,
    type: 'stdio',
    allowed_origins: [extensionOrigin(extensionId)],
  };
}

export function manifestText(manifest: HostManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

export type ManifestReading =
  | { readonly kind: 'missing' }
  | { readonly kind: 'unreadable'; readonly reason: string }
  | { readonly kind: 'read'; readonly manifest: Partial<HostManifest>; readonly problems: readonly string[] };

/** Reads a manifest and lists what keeps it from serving `extensionId` (launcher checks aside). */
export function readManifest(path: string, extensionId: string): ManifestReading {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'unreadable', reason: error instanceof Error ? error.message : String(error) };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'unreadable', reason: `${path} is not JSON` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { kind: 'unreadable', reason: `${path} is not a JSON object` };
  const manifest = value as Partial<Record<keyof HostManifest, unknown>>;
  const problems: string[] = [];
  if (manifest.name !== NATIVE_HOST_NAME)
    problems.push(`its name is ${JSON.stringify(manifest.name)}, not ${NATIVE_HOST_NAME}`);
  if (manifest.type !== 'stdio') problems.push(`its type is ${JSON.stringify(manifest.type)}, not "stdio"`);
  const origin = extensionOrigin(extensionId);
  const origins = manifest.allowed_origins;
  if (!Array.isArray(origins) || origins.length !== 1 || origins[0] !== origin)
    problems.push(`wrong origin: it allows ${JSON.stringify(origins)}, not exactly ["${origin}"]`);
  if (typeof manifest.path !== 'string' || !isAbsolute(manifest.path))
    problems.push(`its path ${JSON.stringify(manifest.path)} is not an absolute path`);
  return {
    kind: 'read',
    manifest: {
      ...(typeof manifest.name === 'string' ? { name: manifest.name } : {}),
      ...(typeof manifest.path === 'string' ? { path: manifest.path } : {}),
    },
    problems,
  };
}
