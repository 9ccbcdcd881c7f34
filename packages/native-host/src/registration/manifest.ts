/**
 * The host manifest Chrome reads: our name, the absolute launcher path, stdio, and exactly the
 * trusted extensions' origins (BPROXY_HOME/extensions.json and the built-in ids). Reading one back says what is wrong with it in words `status`
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

export function buildManifest(launcher: string, extensionIds: readonly string[]): HostManifest {
  return {
    name: NATIVE_HOST_NAME,
    description: 'bproxy native host: finds or starts the bproxy daemon and pairs the extension with it',
    path: launcher,
    type: 'stdio',
    allowed_origins: extensionIds.map(extensionOrigin),
  };
}

export function manifestText(manifest: HostManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

export type ManifestReading =
  | { readonly kind: 'missing' }
  | { readonly kind: 'unreadable'; readonly reason: string }
  | { readonly kind: 'read'; readonly manifest: Partial<HostManifest>; readonly problems: readonly string[] };

/** Reads a manifest and lists what keeps it from serving exactly `extensionIds` (launcher checks aside). */
export function readManifest(path: string, extensionIds: readonly string[]): ManifestReading {
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
  const wanted = extensionIds.map(extensionOrigin);
  const origins: unknown = manifest.allowed_origins;
  const same =
    Array.isArray(origins) &&
    origins.length === wanted.length &&
    wanted.every((origin) => origins.includes(origin));
  if (!same)
    problems.push(
      `wrong origin: it allows ${JSON.stringify(origins)}, not exactly ${JSON.stringify(wanted)} (the trusted extensions): run \`bproxy host install\``,
    );
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
