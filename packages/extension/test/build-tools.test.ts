import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { iconPng } from '../scripts/icon.mjs';
import { zip } from '../scripts/zip.mjs';

/** Reads a zip back through its central directory, the way unzip tools and stores do. */
function unzip(archive: Buffer): Map<string, Buffer> {
  const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = archive.readUInt16LE(end + 10);
  let at = archive.readUInt32LE(end + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    expect(archive.readUInt32LE(at)).toBe(0x02014b50);
    const size = archive.readUInt32LE(at + 20);
    const nameLength = archive.readUInt16LE(at + 28);
    const local = archive.readUInt32LE(at + 42);
    const name = archive.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const dataStart = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
    files.set(name, inflateRawSync(archive.subarray(dataStart, dataStart + size)));
    at += 46 + nameLength;
  }
  return files;
}

describe('build tools', () => {
  it('writes a zip that reads back to the same files, byte for byte and the same every time', () => {
    const entries = [
      { name: 'manifest.json', data: Buffer.from('{"manifest_version":3}\n') },
      { name: 'icons/icon-16.png', data: iconPng(16) },
      { name: 'background.js', data: Buffer.from('x'.repeat(10_000)) },
    ];
    const archive = zip(entries);
    const files = unzip(archive);
    expect([...files.keys()]).toEqual(entries.map((e) => e.name));
    for (const entry of entries) expect(files.get(entry.name)?.equals(entry.data)).toBe(true);
    expect(zip(entries).equals(archive)).toBe(true);
  });

  it('draws icons as PNGs of the asked size', () => {
    for (const size of [16, 128]) {
      const png = iconPng(size);
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect(png.readUInt32BE(16)).toBe(size);
      expect(png.readUInt32BE(20)).toBe(size);
    }
  });
});
