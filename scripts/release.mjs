#!/usr/bin/env node
// `npm run release`: everything a release publishes, in release/<version>/ — the npm tarball of the
// `bproxy` package (packed by npm, so its prepack builds), the Chrome Web Store zip of the extension
// (built by that same build), SHA256SUMS of both, and the CHANGELOG section of the version (the
// "## <version>" section, else the "## Unreleased" one, headed with the version). It refuses a tree with
// uncommitted or untracked changes, and versions that disagree between the root package.json,
// packages/cli/package.json, the extension's manifest and the protocol's BPROXY_VERSION.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function refuse(message) {
  console.error(`release: ${message}`);
  process.exit(1);
}

/** The version each place names, keyed by the file it is read from. */
export function versions(dir) {
  const json = (path) => JSON.parse(readFileSync(join(dir, path), 'utf8')).version;
  const protocol = readFileSync(join(dir, 'packages', 'protocol', 'src', 'version.ts'), 'utf8');
  return {
    'package.json': json('package.json'),
    'packages/cli/package.json': json(join('packages', 'cli', 'package.json')),
    'packages/extension/manifest.json': json(join('packages', 'extension', 'manifest.json')),
    'packages/protocol/src/version.ts': /BPROXY_VERSION = '([^']+)'/.exec(protocol)?.[1] ?? null,
  };
}

/** The CHANGELOG section of `version`, else the Unreleased one; headed `## <version>`. */
export function changelogSection(text, version) {
  const lines = text.split('\n');
  const heading = (line) => /^## /.test(line);
  const find = (pattern) => lines.findIndex((line) => heading(line) && pattern.test(line));
  const escaped = version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  let start = find(new RegExp(`^## \\[?v?${escaped}\\]?(\\s|$)`));
  const fromUnreleased = start === -1;
  if (fromUnreleased) start = find(/^## \[?Unreleased\]?\s*$/i);
  if (start === -1) return null;
  const next = lines.findIndex((line, i) => i > start && heading(line));
  const body = lines.slice(start + 1, next === -1 ? lines.length : next).join('\n');
  return { fromUnreleased, text: `## ${version}\n${body.replace(/\s+$/, '')}\n` };
}

function sha256(path) {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });
  const dirty = git('status', '--porcelain', '--untracked-files=all').trim();
  if (dirty !== '')
    refuse(`the tree has uncommitted or untracked changes; commit or remove them first:\n${dirty}`);

  const found = versions(root);
  const distinct = [...new Set(Object.values(found))];
  if (distinct.length !== 1 || distinct[0] === null || distinct[0] === undefined)
    refuse(
      `the versions disagree; make them one:\n${Object.entries(found)
        .map(([file, version]) => `  ${file}: ${version ?? '(none found)'}`)
        .join('\n')}`,
    );
  const version = distinct[0];

  const section = changelogSection(readFileSync(join(root, 'CHANGELOG.md'), 'utf8'), version);
  if (section === null) refuse(`CHANGELOG.md has neither a "## ${version}" nor a "## Unreleased" section`);

  const out = join(root, 'release', version);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });

  // npm pack runs the package's prepack, which builds every bundle and the extension (and its zip).
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', out], {
      cwd: join(root, 'packages', 'cli'),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const tarball = packed[0]?.filename;
  if (typeof tarball !== 'string') refuse('npm pack named no tarball');
  const zip = `bproxy-extension-${version}.zip`;
  copyFileSync(join(root, 'packages', 'extension', 'dist', 'bproxy-extension.zip'), join(out, zip));
  writeFileSync(join(out, `CHANGELOG-${version}.md`), section.text);
  writeFileSync(
    join(out, 'SHA256SUMS'),
    [tarball, zip].map((name) => `${sha256(join(out, name))}  ${name}\n`).join(''),
  );

  // The build wrote ignored files only: a release is made from exactly the committed tree.
  if (git('status', '--porcelain', '--untracked-files=all').trim() !== '')
    refuse('the build changed tracked files; commit what it produces, then release again');
  if (section.fromUnreleased)
    console.error(`release: CHANGELOG has no "## ${version}" section; the "## Unreleased" one was used`);
  console.error(
    `release: ${relative(root, out)}/ holds ${tarball}, ${zip}, SHA256SUMS, CHANGELOG-${version}.md`,
  );
  console.log(JSON.stringify({ version, dir: out, tarball, zip, fromUnreleased: section.fromUnreleased }));
}
