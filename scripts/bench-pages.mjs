#!/usr/bin/env node
// The real-world bench pages live in the repository as one gzipped tarball
// (tests/fixtures/bench-pages/pages.tar.gz). benchPagesDir() unpacks it, with Node's own zlib and a
// small ustar reader (no system tar needed), into the git-ignored unpacked/ next to it and returns that
// folder. The unpacked copy is stamped with the archive's hash, so a changed archive is unpacked again.
// Several test workers may call this at once: each unpacks into its own temporary folder and renames
// it into place, so a reader never sees a half-written folder.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BENCH_PAGES_HOME = join(root, 'tests', 'fixtures', 'bench-pages');
const ARCHIVE = join(BENCH_PAGES_HOME, 'pages.tar.gz');
const UNPACKED = join(BENCH_PAGES_HOME, 'unpacked');
const STAMP = '.archive-sha256';
/** Flat page names only: nothing in the archive may write outside the folder. */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*\.html$/;

/** The files of an uncompressed ustar archive: regular files only, names checked. */
export function readTar(tar) {
  const files = [];
  let offset = 0;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break; // end-of-archive blocks
    const field = (start, length) => {
      const raw = header.subarray(start, start + length);
      const end = raw.indexOf(0);
      return raw.subarray(0, end === -1 ? length : end).toString('utf8');
    };
    const prefix = field(345, 155);
    const name = prefix === '' ? field(0, 100) : `${prefix}/${field(0, 100)}`;
    const size = Number.parseInt(field(124, 12).trim() || '0', 8);
    const type = field(156, 1) || '0';
    if (!Number.isSafeInteger(size) || size < 0) throw new Error(`bench pages: bad size for ${name}`);
    const body = offset + 512;
    if (body + size > tar.length) throw new Error(`bench pages: ${name} is cut short`);
    if (type === '0') {
      if (!SAFE_NAME.test(name))
        throw new Error(`bench pages: refusing the entry name ${JSON.stringify(name)}`);
      files.push({ name, data: tar.subarray(body, body + size) });
    }
    offset = body + Math.ceil(size / 512) * 512;
  }
  return files;
}

const stampMatches = (hash) => {
  const stamp = join(UNPACKED, STAMP);
  return existsSync(stamp) && readFileSync(stamp, 'utf8') === hash;
};

/** Unpacks the bench pages when needed and returns the folder holding the .html files. */
export function benchPagesDir() {
  const archive = readFileSync(ARCHIVE);
  const hash = createHash('sha256').update(archive).digest('hex');
  if (stampMatches(hash)) return UNPACKED;

  const temp = join(BENCH_PAGES_HOME, `.unpacking-${process.pid}-${randomBytes(4).toString('hex')}`);
  mkdirSync(temp, { recursive: true });
  try {
    for (const file of readTar(gunzipSync(archive))) writeFileSync(join(temp, file.name), file.data);
    writeFileSync(join(temp, STAMP), hash);
    // Another worker may have put a complete copy in place meanwhile: a good copy is never replaced,
    // so a reader holding the folder's path never sees it vanish.
    if (stampMatches(hash)) return UNPACKED;
    if (existsSync(UNPACKED)) rmSync(UNPACKED, { recursive: true, force: true }); // from an older archive
    try {
      renameSync(temp, UNPACKED);
    } catch (error) {
      if (!stampMatches(hash)) throw error; // lost the race to a complete copy: use it
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
  return UNPACKED;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(benchPagesDir());
