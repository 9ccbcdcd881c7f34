#!/usr/bin/env node
// The repository stands on its own: no tracked file may name a path outside it. A fresh clone has
// nothing beside it, so a test, benchmark or doc that reaches for a sibling folder or for one machine's
// absolute path works on that machine only. Three kinds of mention are refused:
//   - absolute paths of one machine: the shared work folder, a home directory with something in it
//     (Linux, macOS, Windows) or root's home — except the made-up users of examples (me, u, you,
//     user, tester, …), which name nobody's machine;
//   - relative paths (`../x`) that climb above the repository root from the file they are written in;
//   - path.join / path.resolve calls whose literal '..' arguments climb above the root, counted from
//     the root when the base is named like the repository root (ROOT, root, repoRoot), else from the
//     file's own folder.
// Run by `npm run check` over `git ls-files`; findOutsidePaths() is the rule, unit-tested.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// The character before a path must not be part of a longer word or a URL's path. (Literal folder
// names below are written with a character class, [o], so that this file does not name them.)
const START = String.raw`(?<![\w.~/\\-])`;
const MACHINE_PATHS = [
  { why: 'the absolute path of a shared folder on one machine', re: String.raw`/w[o]rk/[^\s'"\x60)\]]*` },
  { why: 'a path in a home directory', re: String.raw`/(?:home|Users)/[\w.-]+/[^\s'"\x60)\]]*` },
  { why: "a path in root's home directory", re: String.raw`/r[o]ot/[^\s'"\x60)\]]*` },
  {
    why: 'a path in a Windows home directory',
    re: String.raw`[A-Za-z]:(?:\\\\?)Users(?:\\\\?)[\w.-]+(?:\\\\?)[^\s'"\x60)\]]*`,
  },
].map(({ why, re }) => ({ why, re: new RegExp(START + re, 'g') }));

/** User names that examples and test fixtures make up: `/home/me/profile` is a recipe, not a machine. */
const PLACEHOLDER_USERS = new Set(['me', 'u', 'you', 'user', 'username', 'tester', 'someone', 'example']);
const HOME_USER = /^(?:\/(?:home|Users)\/|[A-Za-z]:(?:\\\\?)Users(?:\\\\?))([\w.-]+)/;
const isExample = (path) => PLACEHOLDER_USERS.has(HOME_USER.exec(path)?.[1]?.toLowerCase() ?? '');

const RELATIVE = new RegExp(START + String.raw`(?:\./)?(?:\.\./)+[\w.@/-]*`, 'g');
const JOIN_CALL = /\b(?:join|resolve)\(\s*([A-Za-z_$][\w$]*)((?:\s*,\s*(['"])[^'"\n]*\3)+)/g;
const ROOT_NAMES = /^(?:root|ROOT|repoRoot|REPO_ROOT)$/;

const climbsOut = (fromDir, relative) => {
  const resolved = posix.normalize(posix.join(fromDir === '' ? '.' : fromDir, relative));
  return resolved === '..' || resolved.startsWith('../');
};

const lineOf = (text, index) => text.slice(0, index).split('\n').length;

/**
 * The outside paths named in one tracked file (`file` relative to the repository root, `/`-separated).
 * Returns one finding per mention: its line, the text and why it is refused.
 */
export function findOutsidePaths(file, text) {
  const dir = posix.dirname(file) === '.' ? '' : posix.dirname(file);
  const findings = [];
  for (const { why, re } of MACHINE_PATHS)
    for (const m of text.matchAll(re))
      if (!isExample(m[0]))
        findings.push({ file, line: lineOf(text, m.index), text: m[0].replace(/[.,;:]+$/, ''), why });
  for (const m of text.matchAll(RELATIVE)) {
    if (climbsOut(dir, m[0]))
      findings.push({
        file,
        line: lineOf(text, m.index),
        text: m[0],
        why: 'a relative path above the repository',
      });
  }
  for (const m of text.matchAll(JOIN_CALL)) {
    const literals = [...m[2].matchAll(/(['"])([^'"\n]*)\1/g)].map((l) => l[2]);
    if (!literals[0]?.startsWith('..')) continue;
    if (climbsOut(ROOT_NAMES.test(m[1]) ? '' : dir, literals.join('/')))
      findings.push({
        file,
        line: lineOf(text, m.index),
        text: m[0],
        why: 'a joined path above the repository',
      });
  }
  return findings.sort((a, b) => a.line - b.line);
}

/** Binary files (the bench-page archive, images) name no paths. */
const isBinary = (buffer) => buffer.subarray(0, 8000).includes(0);

/** Every finding in the files git tracks. */
export function scanRepository(cwd = root) {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  const findings = [];
  for (const file of files) {
    let buffer;
    try {
      buffer = readFileSync(join(cwd, file));
    } catch {
      continue; // deleted in the work tree, not yet in the index
    }
    if (!isBinary(buffer)) findings.push(...findOutsidePaths(file, buffer.toString('utf8')));
  }
  return findings;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const findings = scanRepository();
  for (const f of findings) console.error(`${f.file}:${f.line}: ${f.text} — ${f.why}`);
  if (findings.length > 0) {
    console.error(
      `\n${findings.length} mention(s) of paths outside the repository: bring the data into the repository.`,
    );
    process.exit(1);
  }
  console.error('no tracked file names a path outside the repository');
}
