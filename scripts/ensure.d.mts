/** Types of ensure.mjs, for its unit test. */
export declare function ensureDependencies(): void;
export declare function ensureChromium(): string;
export declare function ensureXvfb(): string;
export declare const KEYRING_TOOLS: Readonly<Record<string, string>>;
export declare function ensureKeyring(platform?: NodeJS.Platform): string[];
export declare function npmCommand(platform?: NodeJS.Platform): { command: string; shell: boolean };
export declare function browserCandidates(platform?: NodeJS.Platform, env?: NodeJS.ProcessEnv): string[];
export declare function findBrowser(
  platform?: NodeJS.Platform,
  env?: NodeJS.ProcessEnv,
  executable?: (path: string) => boolean,
): string | undefined;
