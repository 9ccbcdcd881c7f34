import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
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
} & Record<string, unknown>;
const keyFile = JSON.parse(readFileSync(join(here, 'key.json'), 'utf8')) as { id: string; key: string };
const readme = readFileSync(join(here, 'README.md'), 'utf8');

/** Every TypeScript file of the extension's source, as one text (the chrome-api.ts typings left out). */
function sourceText(dir = join(here, 'src')): string {
  return readdirSync(dir, { withFileTypes: true })
    .map((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sourceText(path);
      return entry.name.endsWith('.ts') && entry.name !== 'chrome-api.ts' ? readFileSync(path, 'utf8') : '';
    })
    .join('\n');
}
const source = sourceText();

/**
 * Each permission the extension may hold, and the use in its own source that needs it. A permission
 * missing here is one nothing needs; a use missing from the source means the permission is no longer
 * needed and must go.
 */
const NEEDED_BY: Record<string, RegExp[]> = {
  storage: [/\.storage\.local\b/, /\.storage\.session\b/],
  tabs: [/\.tabs\.(get|query)\(/],
  scripting: [/\.scripting\.executeScript\(/],
  webNavigation: [/\.webNavigation\.onCommitted\b/, /\.webNavigation\.onCreatedNavigationTarget\b/],
  alarms: [/\.alarms\.create\(/],
  debugger: [/\.debugger\.sendCommand\(/],
  downloads: [/\.onDeterminingFilename\b/],
  nativeMessaging: [/\.connectNative\(/],
  tabGroups: [/\.tabGroups\.update\(/],
  sidePanel: [/\bsidePanel\b/],
  declarativeNetRequestWithHostAccess: [/\.updateSessionRules\(/],
};
/** The page script on web pages, and the daemon on loopback (the proof and the pairing claim). */
const HOSTS_NEEDED_BY: Record<string, RegExp[]> = {
  'http://*/*': [/\.scripting\.executeScript\(/, /`http:\/\/127\.0\.0\.1:\$\{port\}\/pair\/claim`/],
  'https://*/*': [/\.scripting\.executeScript\(/],
};

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

  it('asks only for permissions its code needs, each justified in the README', () => {
    expect([...manifest.permissions].sort()).toEqual(Object.keys(NEEDED_BY).sort());
    for (const [permission, uses] of Object.entries({ ...NEEDED_BY, ...HOSTS_NEEDED_BY })) {
      for (const use of uses) expect(source, `"${permission}" is needed by ${use}`).toMatch(use);
    }
    for (const permission of [...manifest.permissions, ...manifest.host_permissions]) {
      expect(readme, `README.md must justify "${permission}"`).toContain(`\`${permission}\``);
    }
  });

  it('reaches http and https pages only: no <all_urls>, no file://, no content scripts, nothing exposed', () => {
    // Widening these (e.g. back to <all_urls>) would let the page script run on file:// pages.
    expect(manifest.host_permissions).toEqual(['http://*/*', 'https://*/*']);
    for (const permission of manifest.permissions) expect(permission).not.toMatch(/[:/*<]/);
    for (const key of [
      'content_scripts',
      'optional_permissions',
      'optional_host_permissions',
      'web_accessible_resources',
      'externally_connectable',
    ])
      expect(manifest, key).not.toHaveProperty(key);
  });
});
