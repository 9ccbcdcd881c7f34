/** Types of build.mjs, for tests that build the bundles themselves. */
export declare function build(options?: {
  outdir?: string;
}): Promise<{ cli: string; daemon: string; bridge: string; mcp: string; agent: string; nativeHost: string }>;
export declare const BRIDGE_CMD: string;
