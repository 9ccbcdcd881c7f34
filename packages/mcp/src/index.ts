/** @bproxy/mcp — the stdio MCP server `bproxy mcp` runs, and its derived tool list (for the benchmark). */
export { BproxyMcpServer, runMcpServer, type McpServerOptions } from './server';
export { buildTools, TOOL_SPECS, type McpTool, type ToolSpec } from './tools';
export type { Pacing } from './connection-session';
