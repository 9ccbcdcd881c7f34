/** Types of outside-paths.mjs, for its unit test. */
export interface OutsidePath {
  file: string;
  line: number;
  text: string;
  why: string;
}
export declare function findOutsidePaths(file: string, text: string): OutsidePath[];
export declare function scanRepository(cwd?: string): OutsidePath[];
