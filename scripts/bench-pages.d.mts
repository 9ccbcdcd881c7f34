/** Types of bench-pages.mjs, for the tests and benchmarks that read the real-world pages. */
export declare const BENCH_PAGES_HOME: string;
export declare function readTar(tar: Uint8Array): { name: string; data: Uint8Array }[];
export declare function benchPagesDir(): string;
