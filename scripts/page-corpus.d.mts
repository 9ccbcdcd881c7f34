/** Types of page-corpus.mjs, for the tests and benchmarks that read a folder of pages. */
export declare const DEFAULT_CORPUS: string;
export declare const PAGES_ENV: 'BPROXY_BENCH_PAGES';
export declare class CorpusError extends Error {}
export type CorpusSource = '--pages' | 'BPROXY_BENCH_PAGES' | 'default';
export declare function corpusSource(
  argv?: readonly string[],
  env?: Readonly<Record<string, string | undefined>>,
): { dir: string; from: CorpusSource };
export declare function corpusPages(dir: string, from?: CorpusSource): string[];
export interface PageCorpus {
  /** The folder holding the pages. */
  dir: string;
  /** Where the folder was named. */
  from: CorpusSource;
  /** Its .html files, sorted. */
  pages: string[];
  /** Whether it is the project's own corpus (tests/fixtures/corpus). */
  own: boolean;
}
export declare function pageCorpus(
  argv?: readonly string[],
  env?: Readonly<Record<string, string | undefined>>,
): PageCorpus;
export declare function pageCorpusOrExit(
  argv?: readonly string[],
  env?: Readonly<Record<string, string | undefined>>,
): PageCorpus;
