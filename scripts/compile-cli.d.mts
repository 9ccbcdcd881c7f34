/** Types of compile-cli.mjs, for the test that compiles the binary itself. */
export declare function findBun(): string;
export declare function compileCli(options?: { outfile?: string }): Promise<string>;
export declare function bunCompile(entry: string, outfile: string): string;
