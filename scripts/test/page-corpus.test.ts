import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusDifferences, renderCorpus } from '../make-corpus.mjs';
import { CorpusError, DEFAULT_CORPUS, corpusPages, corpusSource, pageCorpus } from '../page-corpus.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'bproxy-corpus-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Opening tags, as a count of the elements a page holds before any script runs. */
const elements = (html: string) => (html.match(/<[a-z][a-z0-9-]*[\s>/]/g) ?? []).length;

describe('page corpus', () => {
  it('is what the generator makes, page for page', () => {
    expect(corpusDifferences()).toEqual([]);
    // The generator is seeded: a second render is the same, and no two pages are alike.
    const again = renderCorpus();
    expect([...renderCorpus()]).toEqual([...again]);
    expect(new Set(again.values()).size).toBe(again.size);
  });

  it('holds eight long pages of realistic size, every element kind the page tests read', () => {
    const pages = corpusPages(DEFAULT_CORPUS);
    expect(pages).toHaveLength(8);
    let total = 0;
    for (const name of pages) {
      const html = readFileSync(join(DEFAULT_CORPUS, name), 'utf8');
      total += html.length;
      expect(html.length, name).toBeGreaterThan(30_000);
      expect(html.length, name).toBeLessThan(400_000);
      expect(elements(html), name).toBeGreaterThan(500);
    }
    expect(total).toBeGreaterThan(500_000);
    const all = pages.map((n) => readFileSync(join(DEFAULT_CORPUS, n), 'utf8')).join('\n');
    for (const tag of [
      '<pre><code>',
      '<table',
      '<figure',
      '<form',
      '<select',
      '<textarea',
      '<dialog',
      '<details',
      'type="password"',
      'role="tab"',
      'hidden',
    ])
      expect(all, tag).toContain(tag);
  });

  it('loads nothing from another host: every reference is relative or inline', () => {
    for (const name of corpusPages(DEFAULT_CORPUS)) {
      const html = readFileSync(join(DEFAULT_CORPUS, name), 'utf8');
      expect(html.match(/\b(?:src|href|action)="(?:https?:)?\/\/[^"]*"/g) ?? [], name).toEqual([]);
    }
  });
});

describe('choosing the pages', () => {
  const pagesDir = join(scratch, 'pages');
  const emptyDir = join(scratch, 'empty');
  const aFile = join(scratch, 'file.html');
  beforeAll(() => {
    mkdirSync(pagesDir);
    mkdirSync(emptyDir);
    writeFileSync(join(pagesDir, 'b.html'), '<p>b');
    writeFileSync(join(pagesDir, 'a.html'), '<p>a');
    writeFileSync(join(pagesDir, 'notes.txt'), 'not a page');
    writeFileSync(join(emptyDir, 'notes.txt'), 'not a page');
    writeFileSync(aFile, '<p>x');
  });

  it('takes --pages DIR, then BPROXY_BENCH_PAGES, then the project corpus', () => {
    const env = { BPROXY_BENCH_PAGES: '/srv/from-env' };
    expect(corpusSource(['--pages', '/srv/from-argv'], env)).toEqual({
      dir: '/srv/from-argv',
      from: '--pages',
    });
    expect(corpusSource(['--clicks', '3', '--pages=/srv/eq'], env)).toEqual({
      dir: '/srv/eq',
      from: '--pages',
    });
    expect(corpusSource([], env)).toEqual({ dir: '/srv/from-env', from: 'BPROXY_BENCH_PAGES' });
    expect(corpusSource([], {})).toEqual({ dir: DEFAULT_CORPUS, from: 'default' });
    expect(corpusSource([], { BPROXY_BENCH_PAGES: '' }).from).toBe('default');
    for (const argv of [['--pages'], ['--pages', '--clicks'], ['--pages=']])
      expect(() => corpusSource(argv, {}), argv.join(' ')).toThrow(/--pages needs a folder/);
  });

  it('lists a folder’s .html pages sorted, and refuses a missing folder, a file or a folder without pages', () => {
    expect(pageCorpus(['--pages', pagesDir], {})).toEqual({
      dir: pagesDir,
      from: '--pages',
      pages: ['a.html', 'b.html'],
      own: false,
    });
    expect(pageCorpus([], {}).own).toBe(true);
    const refusal = (dir: string) => {
      try {
        pageCorpus([], { BPROXY_BENCH_PAGES: dir });
      } catch (error) {
        expect(error).toBeInstanceOf(CorpusError);
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(refusal(join(scratch, 'missing'))).toBe(
      `page corpus (BPROXY_BENCH_PAGES): no such folder: ${join(scratch, 'missing')}`,
    );
    expect(refusal(aFile)).toBe(`page corpus (BPROXY_BENCH_PAGES): not a folder: ${aFile}`);
    expect(refusal(emptyDir)).toBe(`page corpus (BPROXY_BENCH_PAGES): no .html pages in ${emptyDir}`);
  });

  it('a benchmark given --pages DIR reads that folder’s pages and no others', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'bench', 'page-snapshot.ts'), '--pages', pagesDir, '--rows'],
      { cwd: ROOT, encoding: 'utf8', timeout: 90_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    const rows = run.stdout.split('\n').filter((l) => /\.html +default/.test(l));
    expect(rows.map((l) => l.split(' ')[0])).toEqual(['a.html', 'b.html']);
    expect(run.stdout).toContain('pages: 2 (from --pages)');
  }, 100_000);

  it('a benchmark given a folder without pages says so in one line and exits 2, before starting anything', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'bench', 'page-snapshot.ts'), '--pages', emptyDir],
      { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toBe(`page corpus (--pages): no .html pages in ${emptyDir}`);
    expect(run.stdout).toBe('');
  }, 70_000);
});
