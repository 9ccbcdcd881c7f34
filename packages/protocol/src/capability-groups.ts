/**
 * The capability groups, in the order surfaces list them, and what each holds in a few words. An MCP
 * client is offered `core` unless it asks for more (`bproxy mcp --caps`, or the `capabilities` tool);
 * the CLI has every command whatever its group.
 */
import type { CapabilityGroup } from './action-facts';

export const CAPABILITY_GROUPS = ['core', 'files', 'state', 'emulation', 'network', 'debug'] as const;

// Every group of the type is in the list, and nothing else: a new group must be added to both.
type Listed = (typeof CAPABILITY_GROUPS)[number];
const exhaustive: [CapabilityGroup] extends [Listed]
  ? [Listed] extends [CapabilityGroup]
    ? true
    : never
  : never = true;
void exhaustive;

/** What a group is for, short enough to be read in a tool description. */
export const CAPABILITY_GROUP_GIST: { readonly [G in CapabilityGroup]: string } = {
  core: 'tabs, navigation, reads, actions, waits, batch',
  files: 'uploads, downloads, pdf',
  state: 'cookies, saved state',
  emulation: 'device, viewport, locale',
  network: 'requests and responses',
  debug: 'console, request traces, driver log',
};

export function isCapabilityGroup(value: string): value is CapabilityGroup {
  return (CAPABILITY_GROUPS as readonly string[]).includes(value);
}
