import { describe, expect, it } from 'vitest';
import type { CapabilityGroup } from '@bproxy/protocol';
import {
  capabilitiesTool,
  closedToolReply,
  DEFAULT_GROUPS,
  groupsWithTools,
  openGroups,
  parseGroups,
} from '../src/capabilities';
import { buildTools, TOOLS_BY_NAME } from '../src/catalogue';

const text = (reply: { content: { type: string; text?: string }[] }): string =>
  reply.content.map((c) => c.text ?? '').join('\n');

describe('capability groups', () => {
  it('reads --caps: names of groups, all, core always in, an unknown name refused with the known ones', () => {
    expect(parseGroups('')).toEqual({ ok: true, groups: new Set(['core']) });
    expect(parseGroups('debug, network')).toEqual({
      ok: true,
      groups: new Set(['core', 'debug', 'network']),
    });
    const all = parseGroups('all');
    expect(all.ok && [...all.groups].sort()).toEqual([
      'core',
      'debug',
      'emulation',
      'files',
      'network',
      'state',
    ]);
    const bad = parseGroups('debug,gizmos');
    expect(bad).toEqual({ ok: false, message: expect.stringContaining('unknown group "gizmos"') });
  });

  it('offers the capabilities tool for the closed groups that have tools, and none when all are open', () => {
    const tool = capabilitiesTool(DEFAULT_GROUPS);
    expect(tool?.name).toBe('capabilities');
    const closed = groupsWithTools().filter((g) => g !== 'core');
    expect(tool?.description).toBe(`Open more tool groups: ${closed.join(', ')}`);
    expect(tool?.inputSchema.properties).toEqual({
      open: {
        type: 'array',
        items: { enum: closed },
        description: expect.stringContaining('debug: console'),
      },
    });
    expect(capabilitiesTool(new Set(groupsWithTools()))).toBeNull();
  });

  it('opens a group: its tools named in the reply with their schemas, the group added, asked twice changes nothing', () => {
    const opened = new Set<CapabilityGroup>(DEFAULT_GROUPS);
    const first = openGroups(opened, { open: ['debug'] });
    expect(first.changed).toBe(true);
    expect(opened.has('debug')).toBe(true);
    expect(text(first.reply)).toMatch(/^opened debug: debug_last, debug_log, console\n/);
    const debugLast = buildTools(new Set(['debug'])).find((t) => t.name === 'debug_last');
    expect(text(first.reply)).toContain(JSON.stringify(debugLast));
    const again = openGroups(opened, { open: ['debug'] });
    expect(again.changed).toBe(false);
  });

  it('refuses an unknown group or a call without open, opening nothing', () => {
    const opened = new Set<CapabilityGroup>(DEFAULT_GROUPS);
    const unknown = openGroups(opened, { open: ['gizmos'] });
    expect(unknown.reply.isError).toBe(true);
    expect(text(unknown.reply)).toMatch(/^BAD_REQUEST: open: unknown group "gizmos"/);
    expect(openGroups(opened, {}).reply.isError).toBe(true);
    expect(openGroups(opened, { open: ['debug'], also: 1 }).reply.isError).toBe(true);
    expect([...opened]).toEqual(['core']);
  });

  it('answers a tool of a closed group with how to open it', () => {
    const spec = TOOLS_BY_NAME.get('debug_last');
    if (spec === undefined) throw new Error('no debug_last');
    expect(text(closedToolReply(spec))).toBe(
      'UNKNOWN_ACTION: debug_last is in the debug group, which is not open\nWhat to do: Call capabilities with open ["debug"] first',
    );
  });
});
