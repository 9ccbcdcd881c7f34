/** Types of refs.mjs, for the doc check. */
export interface SecurityReference {
  file: string;
  titles: string[];
  text: string;
}
export declare function securityReferences(doc: string): SecurityReference[];
export declare function fixedPart(title: string): string;
export declare function render(ref: { file: string; titles: string[] }): string;
