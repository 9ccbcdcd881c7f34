import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BPROXY_VERSION, DEFAULT_EXTENSION_ID } from '@bproxy/protocol';
import { describe, expect, it } from 'vitest';

const here = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(here, 'manifest.json'), 'utf8')) as {
  key: string;
  version: string;
  manifest_version: number;
  permissions: string[];
  host_permissions: string[];
  background: { service_worker: string; type: string };
};
const keyFile = JSON.parse(readFileSync(join(here, 'key.json'), 'utf8')) as { id: string; key: string };
const readme = readFileSync(join(here, 'README.md'), 'utf8');

/** Chrome's rule: the first 128 bits of SHA-256 of the public key, written with the letters a–p. */
function extensionIdOf(base64Key: string): string {
  const hex = createHash('sha256').update(Buffer.from(base64Key, 'base64')).digest('hex').slice(0, 32);
  return [...hex].map((c) => String.fromCharCode(97 + parseInt(c, 16))).join('');
}

describe('manifest', () => {
  it('carries the key whose id the daemon accepts by default', () => {
    expect(manifest.key).toBe(keyFile.key);
    expect(extensionIdOf(manifest.key)).toBe(DEFAULT_EXTENSION_ID);
    expect(keyFile.id).toBe(DEFAULT_EXTENSION_ID);
  });

  it('is an MV3 extension with a module service worker, versioned like bproxy', () => {
    expect(manifest.manifest_version).toBe(3);
    expect(manifest.background).toEqual({ service_worker: 'background.js', type: 'module' });
    expect(manifest.version).toBe(BPROXY_VERSION);
  });

  it('asks only for permissions the README justifies', () => {
    for (const permission of [...manifest.permissions, ...manifest.host_permissions]) {
      expect(readme, `README.md must justify "${permission}"`).toContain(`\`${permission}\``);
    }
  });
});
