/** @bproxy/mcp — the stdio MCP server `bproxy mcp` runs, on the tool catalogue of @bproxy/tools. */
export { BproxyMcpServer, runMcpServer, type McpServerOptions } from './server';
export type { Pacing } from './connection-session';
export { parseGroups } from '@bproxy/tools';
