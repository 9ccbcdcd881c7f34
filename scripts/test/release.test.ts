/**
 * `npm run release` in a temporary clone of this repository (its node_modules linked from here): it
 * refuses a dirty tree and versions that disagree, and otherwise leaves in release/<version>/ the npm
 * tarball, the store zip, SHA256SUMS that match them, and the CHANGELOG section of the version.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changelogSection } from '../release.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'packages', 'cli', 'package.json'), 'utf8')) as {
    version: string;
  }
).version;

let clone: string;
const git = (...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=release-test', '-c', 'user.email=release-test@localhost', ...args], {
    cwd: clone,
    encoding: 'utf8',
  });

function release(): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(clone, 'scripts', 'release.mjs')],
      { cwd: clone, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      },
    );
  });
}

beforeAll(() => {
  clone = join(mkdtempSync(join(tmpdir(), 'bproxy-release-')), 'repo');
  execFileSync('git', ['clone', '--quiet', '--no-hardlinks', ROOT, clone]);
  // This checkout's release script and package files, committed in the clone (they may not be yet here).
  for (const file of [
    'scripts/release.mjs',
    'packages/cli/package.json',
    'packages/cli/prepack.mjs',
    '.gitignore',
  ])
    copyFileSync(join(ROOT, file), join(clone, file));
  git('add', '-A');
  if (git('status', '--porcelain') !== '') git('commit', '--quiet', '-m', 'release script under test');
  symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
  appendFileSync(join(clone, '.git', 'info', 'exclude'), 'node_modules\n');
});

afterAll(() => {
  if (clone !== undefined) rmSync(dirname(clone), { recursive: true, force: true });
});

describe('npm run release', () => {
  it('refuses a tree with an untracked file', async () => {
    writeFileSync(join(clone, 'stray.txt'), 'not committed\n');
    const result = await release();
    rmSync(join(clone, 'stray.txt'));
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/uncommitted or untracked changes[\s\S]*stray\.txt/);
    expect(existsSync(join(clone, 'release'))).toBe(false);
  });

  it('refuses versions that disagree, naming each', async () => {
    const manifest = join(clone, 'packages', 'extension', 'manifest.json');
    const original = readFileSync(manifest, 'utf8');
    writeFileSync(manifest, original.replace(`"version": "${VERSION}"`, '"version": "9.9.9"'));
    git('commit', '--quiet', '-am', 'a disagreeing manifest');
    try {
      const result = await release();
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain('the versions disagree');
      expect(result.stderr).toContain('packages/extension/manifest.json: 9.9.9');
      expect(result.stderr).toContain(`packages/protocol/src/version.ts: ${VERSION}`);
    } finally {
      git('reset', '--quiet', '--hard', 'HEAD~1');
    }
  });

  it('leaves the tarball, the store zip, their sums and the CHANGELOG section in release/<version>/', async () => {
    const result = await release();
    expect(result.code, result.stderr).toBe(0);
    const dir = join(clone, 'release', VERSION);
    const tarball = `bproxy-${VERSION}.tgz`;
    const zip = `bproxy-extension-${VERSION}.zip`;
    expect(readdirSync(dir).sort()).toEqual([`CHANGELOG-${VERSION}.md`, 'SHA256SUMS', tarball, zip].sort());
    const sums = readFileSync(join(dir, 'SHA256SUMS'), 'utf8');
    const expected = [tarball, zip]
      .map(
        (name) =>
          `${createHash('sha256')
            .update(readFileSync(join(dir, name)))
            .digest('hex')}  ${name}\n`,
      )
      .join('');
    expect(sums).toBe(expected);
    const section = readFileSync(join(dir, `CHANGELOG-${VERSION}.md`), 'utf8');
    expect(section.startsWith(`## ${VERSION}\n`)).toBe(true);
    expect(section).not.toMatch(/\n## /);
    // The store zip is a zip (its local file header), and the tree stays clean.
    expect(readFileSync(join(dir, zip)).subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    expect(git('status', '--porcelain', '--untracked-files=all')).toBe('');
  }, 150_000);
});

describe('the CHANGELOG section', () => {
  const changelog =
    '# Changelog\n\n## Unreleased\n\n### Added\n- next\n\n## 1.2.0\n\n### Fixed\n- one\n\n## 1.1.0\n- old\n';

  it("is the version's own section when it has one", () => {
    expect(changelogSection(changelog, '1.2.0')).toEqual({
      fromUnreleased: false,
      text: '## 1.2.0\n\n### Fixed\n- one\n',
    });
  });

  it('is the Unreleased section, headed with the version, when the version has none yet', () => {
    expect(changelogSection(changelog, '1.3.0')).toEqual({
      fromUnreleased: true,
      text: '## 1.3.0\n\n### Added\n- next\n',
    });
  });

  it('is missing when neither exists', () => {
    expect(changelogSection('# Changelog\n\n## 1.0.0\n- x\n', '2.0.0')).toBeNull();
  });
});
