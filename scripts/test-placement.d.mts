/** Types of test-placement.mjs, for its unit test. */
export declare const SHARED_TEST_FOLDERS: string[];
export declare const KIT_LAUNCHERS: string[];
export declare function chromiumSignal(root: string, testFile: string): string | undefined;
export declare function checkPlacement(root: string, options?: { skip?: string[] }): string[];
export declare const HEADED_LAUNCHERS: string[];
export declare function headedSignal(root: string, testFile: string): string | undefined;
