/**
 * The tool catalogue every LLM-facing surface shares (the MCP server, an agent loop), derived from the
 * protocol: each tool names one action, and its input schema is that action's params schema (never
 * written a second time). A tool may hide params the surface owns (the session's pacing, the browser
 * chosen at startup) or make an optional one required; descriptions are the protocol's summaries
 * unless a tool needs a more exact sentence.
 */
import { ACTIONS, paramsJsonSchema, type ActionName } from '@bproxy/protocol';

interface ToolSpecShape {
  readonly name: string;
  readonly action: ActionName;
  /** Params set by the server, never by the agent. */
  readonly hide?: readonly string[];
  /** Optional params this tool requires. */
  readonly require?: readonly string[];
  readonly description?: string;
}

/** What `target` means, said once per tool that takes one: the schema alone does not tell where handles come from. */
const TARGET_NOTE = 'Handle from snapshot/elements/links (el3, ln2), or {selector}';

const SPECS = [
  { name: 'tab_open', action: 'tab.open', hide: ['browser'], description: 'Open a tab (it becomes current)' },
  { name: 'tab_list', action: 'tab.list', description: 'List your tabs' },
  {
    name: 'tab_select',
    action: 'session.bind',
    hide: ['pacing'],
    require: ['tab'],
    description: 'Make one of your tabs current',
  },
  { name: 'tab_close', action: 'tab.close', description: 'Close a tab (default: the current one)' },
  {
    name: 'navigate',
    action: 'navigate',
    description: 'Load an http(s) URL in the current tab (opens one when none is open)',
  },
  { name: 'back', action: 'back' },
  { name: 'forward', action: 'forward' },
  { name: 'reload', action: 'reload' },
  {
    name: 'snapshot',
    action: 'snapshot',
    description: 'Outline with handles to act on; long text via text; capped, continue with offset',
  },
  { name: 'text', action: 'text', description: 'Visible text; capped, continue with offset' },
  { name: 'elements', action: 'elements' },
  { name: 'links', action: 'links' },
  { name: 'inspect', action: 'inspect' },
  { name: 'click', action: 'click' },
  { name: 'fill', action: 'fill', description: 'Replace the value of a field' },
  { name: 'type', action: 'type', description: 'Type text key by key (into target, else the focus)' },
  { name: 'press', action: 'press' },
  { name: 'select', action: 'select' },
  { name: 'hover', action: 'hover' },
  { name: 'scroll', action: 'scroll' },
  { name: 'wait', action: 'wait' },
  { name: 'screenshot', action: 'screenshot' },
  { name: 'dialog', action: 'dialog' },
  {
    name: 'session_resume',
    action: 'session.resume',
    description: 'Resume after the user did what HUMAN_REQUIRED asked',
  },
  { name: 'debug_last', action: 'debug.last', description: 'Recent request traces (ids, errors, timings)' },
  { name: 'debug_log', action: 'debug.log' },
] as const satisfies readonly ToolSpecShape[];

export type ToolName = (typeof SPECS)[number]['name'];

export interface ToolSpec extends ToolSpecShape {
  readonly name: ToolName;
}

export const TOOL_SPECS: readonly ToolSpec[] = SPECS;

export const TOOLS_BY_NAME: ReadonlyMap<string, ToolSpec> = new Map(TOOL_SPECS.map((t) => [t.name, t]));

/** A tool as a model sees it (MCP's tools/list entry; the same shape suits other LLM APIs). */
export interface ToolDefinition {
  name: ToolName;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function inputSchema(spec: ToolSpec): ToolDefinition['inputSchema'] {
  const json = paramsJsonSchema(spec.action);
  const properties = isObject(json.properties) ? { ...json.properties } : {};
  for (const key of spec.hide ?? []) delete properties[key];
  if (isObject(properties.target)) properties.target = { ...properties.target, description: TARGET_NOTE };
  const required = [
    ...(Array.isArray(json.required) ? json.required.filter((r): r is string => typeof r === 'string') : []),
    ...(spec.require ?? []),
  ].filter((key) => key in properties);
  const schema: ToolDefinition['inputSchema'] = { type: 'object', properties };
  if (required.length > 0) schema.required = required;
  schema.additionalProperties = false;
  return schema;
}

/** The tool list as sent in tools/list. */
export function buildTools(): ToolDefinition[] {
  return TOOL_SPECS.map((spec) => ({
    name: spec.name,
    description: spec.description ?? ACTIONS[spec.action].summary,
    inputSchema: inputSchema(spec),
  }));
}
