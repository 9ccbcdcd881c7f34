/**
 * No MCP tool can write the site policy: every tool the server can list (all groups open) sends one
 * action of the protocol's table — the table packages/daemon/test/policy/no-agent-door.test.ts tries
 * in full against policy.json — or is the server's own capabilities tool, which sends nothing. The
 * policy's only writer, the extension's user channel, has no tool.
 */
import { describe, expect, it } from 'vitest';
import { ACTION_NAMES, CAPABILITY_GROUPS } from '@bproxy/protocol';
import { buildTools, CAPABILITIES_TOOL, TOOLS_BY_NAME } from '../src';

describe('MCP tools and the site policy', () => {
  it('every tool is an action of the protocol table (or the capabilities switch), none a policy door', () => {
    const all = buildTools(new Set(CAPABILITY_GROUPS));
    expect(all.length).toBeGreaterThan(20);
    for (const tool of all) {
      expect(tool.name).not.toMatch(/polic/i);
      if ((tool.name as string) === CAPABILITIES_TOOL) continue;
      const spec = TOOLS_BY_NAME.get(tool.name);
      expect(spec, tool.name).toBeDefined();
      expect(ACTION_NAMES).toContain(spec?.action);
    }
  });
});
