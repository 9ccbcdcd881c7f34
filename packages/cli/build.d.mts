/** Types of build.mjs, for tests that build the bundles themselves. */
export declare function build(options?: {
  outdir?: string;
}): Promise<{ cli: string; daemon: string; bridge: string; mcp: string; agent: string; nativeHost: string }>;
export declare const BRIDGE_CMD: string;
/** The model SDKs the agent's bundle leaves out (optional peer dependencies of the package). */
export declare const AGENT_SDKS: readonly string[];
/** Every package the bundles leave out and import at run time. */
export declare const EXTERNALS: readonly string[];
