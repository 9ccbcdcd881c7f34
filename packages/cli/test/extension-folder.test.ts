/**
 * The built extension's folder, as `bproxy setup` and `bproxy extension path` name it: beside the
 * bundles in an installed package (dist/extension/), and in a clone where packages/extension builds it
 * when the CLI's build has not copied it yet.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extensionFolder } from '../src/extension-folder';

const root = mkdtempSync(join(tmpdir(), 'bproxy-extension-folder-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function manifestIn(folder: string): void {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'manifest.json'), '{}');
}

describe('the extension folder', () => {
  it('is dist/extension of an installed package', () => {
    const dist = join(root, 'prefix', 'lib', 'node_modules', 'bproxy', 'dist');
    manifestIn(join(dist, 'extension'));
    expect(extensionFolder(dist)).toBe(join(dist, 'extension'));
  });

  it("is packages/extension's build in a clone whose CLI bundles do not carry it", () => {
    const dist = join(root, 'clone', 'packages', 'cli', 'dist');
    mkdirSync(dist, { recursive: true });
    manifestIn(join(root, 'clone', 'packages', 'extension', 'dist', 'unpacked'));
    expect(extensionFolder(dist)).toBe(join(root, 'clone', 'packages', 'extension', 'dist', 'unpacked'));
    manifestIn(join(dist, 'extension'));
    expect(extensionFolder(dist)).toBe(join(dist, 'extension'));
  });

  it('is null when no built extension is found', () => {
    const dist = join(root, 'bare', 'dist');
    mkdirSync(dist, { recursive: true });
    expect(extensionFolder(dist)).toBeNull();
  });
});
