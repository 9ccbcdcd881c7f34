/** Types of release.mjs, for its test. */
export declare function versions(dir: string): Record<string, string | null | undefined>;
export declare function changelogSection(
  text: string,
  version: string,
): { fromUnreleased: boolean; text: string } | null;
