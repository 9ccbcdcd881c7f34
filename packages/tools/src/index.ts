/**
 * @bproxy/tools — the LLM-facing tool catalogue, defined once for every surface that offers bproxy's
 * actions to a model (the MCP server now, an agent loop next): tool names, descriptions and input
 * schemas derived from the protocol, the argument check, each tool's deadline, and the one-line
 * replies that tell a model what changed. It imports the protocol alone: a surface brings its own
 * transport (the daemon client) and its own session.
 */
export {
  buildTools,
  toolDefinition,
  TOOL_SPECS,
  TOOLS_BY_NAME,
  type ToolDefinition,
  type ToolName,
  type ToolSpec,
} from './catalogue';
export { errorReply, localError, textReply, TOOL_HINTS, type ToolError, type ToolReply } from './errors';
export { successReply } from './replies';
export {
  fenceUntrusted,
  untrustedFields,
  untrustedRule,
  UNTRUSTED_CLOSE,
  UNTRUSTED_NONCE,
  UNTRUSTED_OPEN,
} from './untrusted';
export { checkToolArgs, toolTimeoutMs, type CheckedToolCall } from './tool-call';
export { outcomeOf, type CallOutcome, type DaemonAnswer } from './outcome';
export { type StepPolicy } from './batch-tool';
export {
  runTool,
  type RunToolOptions,
  type SendAction,
  type ToolAction,
  type ToolCallResult,
} from './run-tool';
export {
  CAPABILITIES_TOOL,
  capabilitiesTool,
  closedToolReply,
  DEFAULT_GROUPS,
  groupsWithTools,
  openGroups,
  parseGroups,
  type ListedTool,
} from './capabilities';
