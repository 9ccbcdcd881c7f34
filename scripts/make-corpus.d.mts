/** Types of make-corpus.mjs, for the test that checks the corpus against its generator. */
export declare function renderCorpus(): Map<string, string>;
export declare function corpusDifferences(dir?: string): string[];
