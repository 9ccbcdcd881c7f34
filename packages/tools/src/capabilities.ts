/**
 * Capability groups on a tool surface: which groups it offers, the `capabilities` tool a model calls to
 * open more of them at run time, and that tool's reply. Every action's tool belongs to its action's
 * group (`group` in the protocol's action facts); a surface offers `core` unless told otherwise.
 */
import {
  CAPABILITY_GROUP_GIST,
  CAPABILITY_GROUPS,
  isCapabilityGroup,
  type CapabilityGroup,
} from '@bproxy/protocol';
import { TOOL_SPECS, toolDefinition, type ToolSpec } from './catalogue';
import { localError, textReply, type ToolReply } from './errors';

export const CAPABILITIES_TOOL = 'capabilities';

/** A tool as tools/list sends it, whether an action's or the surface's own. */
export interface ListedTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
}

/** The groups offered when nothing is asked for. */
export const DEFAULT_GROUPS: ReadonlySet<CapabilityGroup> = new Set(['core']);

/** The groups that have at least one tool, in the protocol's order. */
export function groupsWithTools(): CapabilityGroup[] {
  return CAPABILITY_GROUPS.filter((group) => TOOL_SPECS.some((spec) => spec.group === group));
}

/**
 * The groups a `--caps` value names: a comma-separated list of group names, or `all`. `core` is always
 * in; an unknown name is an error that lists the known ones.
 */
export function parseGroups(
  value: string,
): { ok: true; groups: Set<CapabilityGroup> } | { ok: false; message: string } {
  const groups = new Set<CapabilityGroup>(DEFAULT_GROUPS);
  for (const raw of value.split(',')) {
    const name = raw.trim();
    if (name === '') continue;
    if (name === 'all') {
      for (const group of CAPABILITY_GROUPS) groups.add(group);
      continue;
    }
    if (!isCapabilityGroup(name))
      return {
        ok: false,
        message: `unknown group "${name}"; the groups are ${CAPABILITY_GROUPS.join(', ')} (or all)`,
      };
    groups.add(name);
  }
  return { ok: true, groups };
}

/** The groups with tools that `opened` leaves closed. */
function closedGroups(opened: ReadonlySet<CapabilityGroup>): CapabilityGroup[] {
  return groupsWithTools().filter((group) => !opened.has(group));
}

/** The `capabilities` tool as tools/list sends it; none when every group with tools is open. */
export function capabilitiesTool(opened: ReadonlySet<CapabilityGroup>): ListedTool | null {
  const closed = closedGroups(opened);
  if (closed.length === 0) return null;
  return {
    name: CAPABILITIES_TOOL,
    description: `Open more tool groups: ${closed.join(', ')}`,
    inputSchema: {
      type: 'object',
      properties: {
        open: {
          type: 'array',
          items: { enum: closed },
          description: closed.map((g) => `${g}: ${CAPABILITY_GROUP_GIST[g]}`).join('; '),
        },
      },
      required: ['open'],
      additionalProperties: false,
    },
  };
}

/** Where a tool of a closed group is refused: it says how to open it. */
export function closedToolReply(spec: ToolSpec): ToolReply {
  return localError(
    'UNKNOWN_ACTION',
    `${spec.name} is in the ${spec.group} group, which is not open`,
    `Call ${CAPABILITIES_TOOL} with open ["${spec.group}"] first`,
  );
}

/**
 * A call of the `capabilities` tool: the groups it opens (added to `opened`) and its reply, which lists
 * the tools they bring with their schemas — a client that does not refresh its tool list on
 * tools/list_changed can still call them, as steps of batch.
 */
export function openGroups(
  opened: Set<CapabilityGroup>,
  args: Record<string, unknown>,
): { changed: boolean; reply: ToolReply } {
  const extra = Object.keys(args).filter((key) => key !== 'open');
  const open = args.open;
  if (extra.length > 0 || !Array.isArray(open) || open.length === 0)
    return {
      changed: false,
      reply: localError(
        'BAD_REQUEST',
        `${CAPABILITIES_TOOL} takes open: a list of groups`,
        `Call it with open ["debug"], say`,
      ),
    };
  const names: CapabilityGroup[] = [];
  for (const name of open) {
    if (typeof name !== 'string' || !isCapabilityGroup(name))
      return {
        changed: false,
        reply: localError(
          'BAD_REQUEST',
          `open: unknown group ${JSON.stringify(name)}`,
          `Name groups of ${CAPABILITY_GROUPS.join(', ')}`,
        ),
      };
    names.push(name);
  }
  const added = names.filter((group) => !opened.has(group));
  for (const group of added) opened.add(group);
  const lines: string[] = [];
  for (const group of names) {
    const tools = TOOL_SPECS.filter((spec) => spec.group === group);
    if (tools.length === 0) lines.push(`${group}: no tools in this version`);
    else lines.push(`${group}: ${tools.map((spec) => spec.name).join(', ')}`);
  }
  const brought = TOOL_SPECS.filter((spec) => added.includes(spec.group)).map(toolDefinition);
  if (brought.length > 0) {
    lines.push(
      'If your tool list did not change, call them as batch steps: {"steps":[{"action":NAME,"params":{…}}]}.',
      ...brought.map((tool) => JSON.stringify(tool)),
    );
  }
  return { changed: brought.length > 0, reply: textReply(`opened ${lines.join('\n')}`) };
}
