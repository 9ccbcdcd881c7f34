// Where the benchmarks and page tests find their pages: a folder of .html files. The benchmarks take
// it from `--pages DIR` on their command line or BPROXY_BENCH_PAGES in the environment, and default to
// the project's own corpus (tests/fixtures/corpus, made by scripts/make-corpus.mjs). A folder that is
// missing, is not a folder, or holds no .html file is refused with a message naming the source.
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_CORPUS = join(root, 'tests', 'fixtures', 'corpus');
export const PAGES_ENV = 'BPROXY_BENCH_PAGES';

export class CorpusError extends Error {}

/** The folder named by `--pages DIR` / `--pages=DIR`, else the environment, else the default. */
export function corpusSource(argv = process.argv.slice(2), env = process.env) {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (a === '--pages') {
      const value = argv[i + 1];
      if (value === undefined || value === '' || value.startsWith('--'))
        throw new CorpusError('--pages needs a folder of .html pages: --pages DIR');
      return { dir: resolve(value), from: '--pages' };
    }
    if (a.startsWith('--pages=')) {
      const value = a.slice('--pages='.length);
      if (value === '') throw new CorpusError('--pages needs a folder of .html pages: --pages DIR');
      return { dir: resolve(value), from: '--pages' };
    }
  }
  const fromEnv = env[PAGES_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return { dir: resolve(fromEnv), from: PAGES_ENV };
  return { dir: DEFAULT_CORPUS, from: 'default' };
}

/** The .html files of `dir`, sorted; refuses a missing folder, a file, or a folder without pages. */
export function corpusPages(dir, from = 'default') {
  let isDir;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new CorpusError(`page corpus (${from}): no such folder: ${dir}`);
  }
  if (!isDir) throw new CorpusError(`page corpus (${from}): not a folder: ${dir}`);
  const pages = readdirSync(dir)
    .filter((n) => n.endsWith('.html'))
    .sort();
  if (pages.length === 0) throw new CorpusError(`page corpus (${from}): no .html pages in ${dir}`);
  return pages;
}

/** The corpus a benchmark runs on: its folder, its pages, and whether it is the project's own. */
export function pageCorpus(argv = process.argv.slice(2), env = process.env) {
  const { dir, from } = corpusSource(argv, env);
  return { dir, from, pages: corpusPages(dir, from), own: dir === DEFAULT_CORPUS };
}

/**
 * For a benchmark's entry point: the corpus, or the refusal printed as one line and exit code 2
 * (a usage error), never a stack trace.
 */
export function pageCorpusOrExit(argv = process.argv.slice(2), env = process.env) {
  try {
    return pageCorpus(argv, env);
  } catch (error) {
    if (!(error instanceof CorpusError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const corpus = pageCorpusOrExit();
  console.log(`${corpus.dir} (${corpus.from}): ${corpus.pages.length} pages`);
}
