#!/usr/bin/env node
// `npm run check:security`: proves that every test docs/security.md names fails when the protection
// it stands for is removed. Each mutant of scripts/security/mutants/ is applied to the working tree
// (the files it edits must be unmodified in git), the bundles are rebuilt when an end-to-end test must
// see it, the tests it must kill run with vitest's JSON reporter, and the file is restored — also on
// Ctrl-C. A mutant survives when one of its tests still passes; a mutant whose test is not found, or
// whose edit no longer applies, is an error. Exit 0 only when every mutant chosen was killed.
//
// Each mutant's tests run first on the unmodified source and must pass there (`--no-baseline` skips
// that, halving the time).
//
//   node scripts/security/run-mutants.mjs [--only id,id] [--unit] [--list] [--no-baseline]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MUTANTS } from './mutants/index.mjs';
import { fixedPart } from './refs.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const only = args.includes('--only') ? (args[args.indexOf('--only') + 1] ?? '').split(',') : null;
const unitOnly = args.includes('--unit');
const isE2e = (m) => m.build === true || m.kills.some((k) => k.startsWith('tests/'));
const chosen = MUTANTS.filter((m) => (only ? only.includes(m.id) : true) && (!unitOnly || !isE2e(m)));

if (args.includes('--list')) {
  for (const m of chosen) console.log(`${m.id}\t${m.edits.map((e) => e.file).join(', ')}`);
  process.exit(0);
}

/** Applies a mutant's edits, noting each file's original in `originals` first; throws when one is off. */
function apply(mutant, originals) {
  for (const { file, find, replace } of mutant.edits) {
    const path = join(root, file);
    if (!originals.has(path)) {
      const dirty = spawnSync('git', ['diff', '--quiet', '--', file], { cwd: root }).status !== 0;
      if (dirty) throw new Error(`${file} has uncommitted changes: commit or stash them first`);
      originals.set(path, readFileSync(path, 'utf8'));
    }
    const current = readFileSync(path, 'utf8');
    const count = current.split(find).length - 1;
    if (count !== 1) throw new Error(`${file}: the text to remove occurs ${count} times, not once`);
    writeFileSync(
      path,
      current.replace(find, () => replace),
    );
  }
}

const pending = new Map();
const restore = () => {
  for (const [path, text] of pending) writeFileSync(path, text);
  pending.clear();
};
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    restore();
    process.exit(130);
  });
}

const build = () =>
  execFileSync('node', ['scripts/build.mjs'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });

/** The vitest arguments that run a mutant's tests: the files, and a -t filter of their titles. */
function testArgs(mutant) {
  // The named test files, and the files that run a named shared suite (`run`).
  const named = mutant.kills.map((k) => k.split(' › ')[0] ?? '').filter((f) => /\.test\.ts$/.test(f));
  const files = [...new Set([...(mutant.run ?? []), ...named])];
  const patterns = mutant.kills
    .map((k) => k.split(' › ').slice(1))
    .map((titles) => titles[titles.length - 1])
    .map((t) => (t === undefined ? '' : fixedPart(t)));
  const filter = patterns.includes('')
    ? []
    : ['-t', patterns.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')];
  return [...files, ...filter];
}

/** Runs a mutant's tests; answers each test's result by its path of titles. */
function runTests(mutant) {
  const dir = mkdtempSync(join(tmpdir(), 'bproxy-mutant-'));
  const out = join(dir, 'report.json');
  spawnSync('npx', ['vitest', 'run', ...testArgs(mutant), '--reporter=json', `--outputFile=${out}`], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' },
  });
  let report;
  try {
    report = JSON.parse(readFileSync(out, 'utf8'));
  } catch {
    report = { testResults: [] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const results = [];
  for (const file of report.testResults ?? []) {
    const loadFailed = file.status === 'failed' && (file.assertionResults ?? []).length === 0;
    if (loadFailed) results.push({ path: '', status: 'load-failed', message: file.message ?? '' });
    for (const a of file.assertionResults ?? []) {
      results.push({ path: [...(a.ancestorTitles ?? []), a.title].join(' › '), status: a.status });
    }
  }
  return results;
}

/** killed when a test the reference names failed; survived when all it names passed; else skipped. */
function verdict(kill, results) {
  const titles = kill.split(' › ').slice(1).map(fixedPart);
  const named = results.filter((r) => titles.every((t) => r.path.includes(t)) && r.status !== 'load-failed');
  if (results.some((r) => r.status === 'load-failed')) return 'load-failed';
  if (named.length === 0) return 'not-found';
  if (named.some((r) => r.status === 'failed')) return 'killed';
  // A suite whose set-up failed skips its tests: that proves nothing either way (a missing build?).
  return named.every((r) => r.status === 'passed') ? 'survived' : 'skipped';
}

// First the same tests on the source as it is: a test that fails there (a missing build, a test that
// needs an earlier one in its file) would pass for a kill without proving anything.
const baseline = new Map();
if (!args.includes('--no-baseline')) {
  if (chosen.some(isE2e)) build();
  for (const mutant of chosen) {
    const key = JSON.stringify(testArgs(mutant));
    if (!baseline.has(key)) baseline.set(key, runTests(mutant));
  }
}

let bad = 0;
let built = false;
for (const mutant of chosen) {
  const started = Date.now();
  let lines;
  const before = baseline.get(JSON.stringify(testArgs(mutant)));
  const unfit = before === undefined ? [] : mutant.kills.filter((k) => verdict(k, before) !== 'survived');
  try {
    if (unfit.length > 0)
      throw new Error(`fails or is not found on the unmodified source: ${unfit.join('; ')}`);
    apply(mutant, pending);
    if (isE2e(mutant)) {
      build();
      built = true;
    }
    const results = runTests(mutant);
    lines = mutant.kills.map((k) => ({ kill: k, verdict: verdict(k, results) }));
  } catch (error) {
    lines = [{ kill: '', verdict: `error: ${error instanceof Error ? error.message : String(error)}` }];
  } finally {
    restore();
  }
  const ok = lines.every((l) => l.verdict === 'killed');
  if (!ok) bad++;
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`${ok ? 'killed  ' : 'SURVIVED'} ${mutant.id} (${secs} s)`);
  for (const l of lines) if (l.verdict !== 'killed') console.log(`    ${l.verdict}: ${l.kill}`);
}
if (built) build();
console.log(`\n${chosen.length - bad} of ${chosen.length} mutants killed`);
process.exit(bad === 0 ? 0 : 1);
