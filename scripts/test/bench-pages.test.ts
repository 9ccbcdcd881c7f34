import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchPagesDir, readTar } from '../bench-pages.mjs';

/** One ustar entry (header + padded body), as tar writes it. */
function entry(name: string, body: string, type = '0'): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0, 'utf8');
  header.write('0000644\0', 100);
  header.write(`${Buffer.byteLength(body).toString(8).padStart(11, '0')}\0`, 124);
  header.write(type, 156);
  header.write('ustar\0' + '00', 257);
  const data = Buffer.alloc(Math.ceil(Buffer.byteLength(body) / 512) * 512);
  data.write(body);
  return Buffer.concat([header, data]);
}
const tar = (...entries: Buffer[]) => Buffer.concat([...entries, Buffer.alloc(1024)]);

describe('bench pages', () => {
  it('unpacks the 130 real-world pages from the archive in the repository', () => {
    const dir = benchPagesDir();
    const pages = readdirSync(dir).filter((n) => n.endsWith('.html'));
    expect(pages).toHaveLength(130);
    expect(readFileSync(join(dir, 'wikipedia.html'), 'utf8')).toContain('<html');
    expect(benchPagesDir()).toBe(dir); // the second call reuses the unpacked copy
  });

  it('reads regular files of a ustar archive and skips other entries', () => {
    const files = readTar(
      tar(entry('a.html', 'hello'), entry('dir', '', '5'), entry('b.html', 'x'.repeat(600))),
    );
    expect(files.map((f) => [f.name, Buffer.from(f.data).toString()])).toEqual([
      ['a.html', 'hello'],
      ['b.html', 'x'.repeat(600)],
    ]);
  });

  it('refuses an entry that would be written outside the folder', () => {
    for (const name of ['../evil.html', 'sub/page.html', '.hidden.html', 'page.js'])
      expect(() => readTar(tar(entry(name, 'x'))), name).toThrow(/refusing the entry name/);
  });

  it('refuses an archive cut short', () => {
    expect(() => readTar(entry('a.html', 'x'.repeat(600)).subarray(0, 700))).toThrow(/cut short/);
  });
});
