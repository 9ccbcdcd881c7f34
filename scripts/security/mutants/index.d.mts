/** Types of index.mjs, for the doc check. */
export interface MutantEdit {
  file: string;
  find: string;
  replace: string;
}
export interface Mutant {
  id: string;
  protects: string;
  edits: MutantEdit[];
  kills: string[];
  /** Test files to run when the named file is a shared suite. */
  run?: string[];
  /** Rebuild the bundles with the edit in place (end-to-end tests run them). */
  build?: boolean;
}
export declare const MUTANTS: Mutant[];
