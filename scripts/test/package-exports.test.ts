/** Every workspace package's package.json points at files that exist: its exports, main and bin. */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..');
const packages = readdirSync(join(root, 'packages')).filter((name) =>
  existsSync(join(root, 'packages', name, 'package.json')),
);

/** The file targets of an exports map: strings, nested condition objects, null for a blocked path. */
function targets(exports: unknown): string[] {
  if (typeof exports === 'string') return [exports];
  if (exports === null || typeof exports !== 'object') return [];
  return Object.values(exports).flatMap(targets);
}

describe('workspace packages', () => {
  it('are all checked', () => {
    expect(packages).toEqual(expect.arrayContaining(['cli', 'daemon', 'protocol', 'page', 'cdp', 'mcp']));
  });

  it.each(packages)('%s: every export, main and bin resolves to a file', (name) => {
    const dir = join(root, 'packages', name);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
    const bin = manifest.bin;
    const files = [
      ...targets(manifest.exports),
      ...(typeof manifest.main === 'string' ? [manifest.main] : []),
      ...(typeof bin === 'string' ? [bin] : bin !== null && typeof bin === 'object' ? targets(bin) : []),
    ];
    const missing = files.filter((file) => !existsSync(join(dir, file)));
    expect(missing, `${name}/package.json names missing files`).toEqual([]);
  });
});
