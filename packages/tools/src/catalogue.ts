/**
 * The tool catalogue every LLM-facing surface shares (the MCP server, an agent loop), derived from the
 * protocol: each action is a tool unless tool-overrides.ts says otherwise, named after it, described by
 * its summary, and its input schema is that action's params schema (never written a second time). An
 * override may hide params the surface owns (the session's pacing, the browser chosen at startup), make
 * an optional one required, rename the tool or give a more exact sentence.
 */
import {
  ACTION_FACTS,
  ACTION_NAMES,
  actionGroup,
  paramsJsonSchema,
  type ActionName,
  type CapabilityGroup,
} from '@bproxy/protocol';
import { BATCH_INPUT_SCHEMA } from './batch-tool';
import { compactProperties, compactTarget } from './compact-schema';
import { NO_TOOL, TOOL_ORDER, TOOL_OVERRIDES, type ToolOverride } from './tool-overrides';

type Overrides = typeof TOOL_OVERRIDES;

/** The actions that are tools: every action but those the overrides keep away. */
type ToolAction = {
  [A in ActionName]: A extends keyof Overrides ? (Overrides[A] extends typeof NO_TOOL ? never : A) : A;
}[ActionName];

/** An action's tool name by default: its name with '_' for '.'. */
type DefaultName<A extends string> = A extends `${infer Head}.${infer Tail}`
  ? `${Head}_${DefaultName<Tail>}`
  : A;

type NameOf<A extends ToolAction> = A extends keyof Overrides
  ? Overrides[A] extends { readonly name: infer N extends string }
    ? N
    : DefaultName<A>
  : DefaultName<A>;

export type ToolName = { [A in ToolAction]: NameOf<A> }[ToolAction];

export interface ToolSpec {
  readonly name: ToolName;
  readonly action: ActionName;
  /** Params set by the server, never by the agent. */
  readonly hide?: readonly string[];
  /** Optional params this tool requires. */
  readonly require?: readonly string[];
  readonly description: string;
  /** The capability group the tool is offered in (its action's). */
  readonly group: CapabilityGroup;
}

/** What `target` means, said once per tool that takes one: the schema alone does not tell where handles come from. */
const TARGET_NOTE = 'Handle from a read (el3, ln2), or {selector}';

function overrideOf(action: ActionName): ToolOverride | typeof NO_TOOL {
  const overrides: { readonly [A in ActionName]?: ToolOverride | typeof NO_TOOL } = TOOL_OVERRIDES;
  return overrides[action] ?? {};
}

/** The tool of `action` as the protocol and its override make it; null when it has none. */
function specOf(action: ActionName): ToolSpec | null {
  const override = overrideOf(action);
  if (override === NO_TOOL) return null;
  return {
    // The name follows from the override's type (NameOf); the value is derived the same way.
    name: (override.name ?? action.replaceAll('.', '_')) as ToolName,
    action,
    ...(override.hide === undefined ? {} : { hide: override.hide }),
    ...(override.require === undefined ? {} : { require: override.require }),
    description: override.description ?? ACTION_FACTS[action].summary,
    group: actionGroup(action),
  };
}

const ORDERED: readonly ActionName[] = [
  ...TOOL_ORDER,
  ...ACTION_NAMES.filter((action) => !TOOL_ORDER.includes(action)),
];

export const TOOL_SPECS: readonly ToolSpec[] = ORDERED.map(specOf).filter((spec) => spec !== null);

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
  // A batch's steps name tools, not actions: its schema is the tool's own.
  if (spec.action === 'batch') return BATCH_INPUT_SCHEMA;
  const json = paramsJsonSchema(spec.action);
  const properties = isObject(json.properties) ? compactProperties(json.properties) : {};
  for (const key of spec.hide ?? []) delete properties[key];
  if (isObject(properties.target)) properties.target = compactTarget(TARGET_NOTE);
  if (spec.action === 'drag' && isObject(properties.to))
    properties.to = compactTarget('Where to drop it, likewise');
  const required = [
    ...(Array.isArray(json.required) ? json.required.filter((r): r is string => typeof r === 'string') : []),
    ...(spec.require ?? []),
  ].filter((key) => key in properties);
  const schema: ToolDefinition['inputSchema'] = { type: 'object', properties };
  if (required.length > 0) schema.required = required;
  schema.additionalProperties = false;
  return schema;
}

/** A tool as tools/list sends it. */
export function toolDefinition(spec: ToolSpec): ToolDefinition {
  return { name: spec.name, description: spec.description, inputSchema: inputSchema(spec) };
}

/**
 * The tool list as sent in tools/list: the tools of `groups` (every group when not given), in the
 * catalogue's order.
 */
export function buildTools(groups?: ReadonlySet<CapabilityGroup>): ToolDefinition[] {
  return TOOL_SPECS.filter((spec) => groups === undefined || groups.has(spec.group)).map(toolDefinition);
}
