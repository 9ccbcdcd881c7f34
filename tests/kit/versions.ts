/**
 * Parts of bproxy as another release would have built them, for the version-skew tests. The product
 * has no hook for this — its version is a constant of the build — so a test takes a real built part
 * and changes only its version: a bundle's one `BPROXY_VERSION = "…"` definition, or the extension
 * manifest's `version` (a copy of the unpacked folder; the key, and so the id, stays).
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BPROXY_VERSION } from '@bproxy/protocol';

/** A built bundle's text with its BPROXY_VERSION changed; throws unless it defines it exactly once. */
export function withVersion(bundleText: string, version: string): string {
  const definition = `BPROXY_VERSION = ${JSON.stringify(BPROXY_VERSION)}`;
  const parts = bundleText.split(definition);
  if (parts.length !== 2)
    throw new Error(`expected one "${definition}" in the bundle, found ${parts.length - 1}`);
  return parts.join(`BPROXY_VERSION = ${JSON.stringify(version)}`);
}

/** Rewrites the bundle at `file` in place as version `version`. */
export function rewriteVersion(file: string, version: string): void {
  writeFileSync(file, withVersion(readFileSync(file, 'utf8'), version));
}

/** A copy of the unpacked extension `dir` whose manifest says `version`; returns its folder. */
export function extensionOfVersion(dir: string, version: string): string {
  const copy = mkdtempSync(join(tmpdir(), 'bproxy-ext-version-'));
  cpSync(dir, copy, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(copy, 'manifest.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(copy, 'manifest.json'), JSON.stringify({ ...manifest, version }, null, 2));
  return copy;
}

/** Another patch release of this version's minor: compatible by the protocol's rule. */
export function compatibleVersion(): string {
  const [major = '0', minor = '0'] = BPROXY_VERSION.split('.');
  return `${major}.${minor}.99`;
}
