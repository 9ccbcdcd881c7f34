/**
 * The whole command tree: every protocol action has a command (hand-written, or derived from the
 * protocol), a new protocol entry alone gives a working command with its help, and the README's CLI
 * reference is exactly the table the definitions make.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ACTION_NAMES } from '@bproxy/protocol';
import { describe, expect, it } from 'vitest';
import type { ActionCall } from '../../src/actions/grammar';
import { SECTIONS } from '../../src/actions/index';
import {
  actionsOf,
  commandTree,
  protocolSources,
  referenceRows,
  referenceTable,
} from '../../src/commands/tree';
import type { GlobalOptions } from '../../src/global-options';
import { buildProgram } from '../../src/program';
import { capture } from '../helpers/capture';

/** A protocol entry the protocol does not have: what a new action brings, and nothing else. */
const COOKIE_GET = {
  action: 'cookie.get',
  summary: 'Read the cookies of the page',
  params: {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'only the cookie of this name' },
      limit: { type: 'integer', minimum: 1, maximum: 50 },
      httpOnly: { type: 'boolean' },
      sameSite: { type: 'string', enum: ['strict', 'lax', 'none'] },
    },
    required: ['name'],
  },
};
const TAB_MUTE = {
  action: 'tab.mute',
  summary: 'Mute a tab',
  params: { type: 'object', properties: { target: { anyOf: [{ type: 'string' }] } } },
};

/** Runs `args` through the program of `sections`; the call its action command made, and the output. */
async function run(
  args: readonly string[],
  sections = commandTree([...protocolSources(), COOKIE_GET, TAB_MUTE]),
) {
  const calls: ActionCall[] = [];
  const context = {
    env: {},
    run: (_globals: GlobalOptions, call: ActionCall) => {
      calls.push(call);
      return Promise.resolve();
    },
  };
  const output = await capture(async () => {
    try {
      await buildProgram(false, args, context, sections).parseAsync(args, { from: 'user' });
      return 0;
    } catch {
      return 1;
    }
  });
  return { calls, output };
}

describe('the command tree', () => {
  it('has a command for every protocol action, all of them hand-written today', () => {
    expect(protocolSources()).toEqual([]);
    expect(new Set(actionsOf(commandTree()))).toEqual(new Set(ACTION_NAMES));
    expect(commandTree()).toBe(SECTIONS);
  });

  it('gives a new protocol entry a command of its own words, options and help', async () => {
    const { calls } = await run([
      'cookie',
      'get',
      '--name',
      'sid',
      '--limit',
      '2',
      '--http-only',
      '--same-site',
      'lax',
    ]);
    expect(calls).toEqual([
      { action: 'cookie.get', params: { name: 'sid', limit: 2, httpOnly: true, sameSite: 'lax' } },
    ]);
    const help = (await run(['cookie', 'get', '--help'])).output.stdout;
    expect(help).toContain('Usage: bproxy cookie get [options]');
    expect(help).toContain('read the cookies of the page');
    expect(help).toMatch(/--name <text>\s+only the cookie of this name \(required\)/);
    expect(help).toMatch(/--limit <n>\s+an integer \(1-50\)/);
    expect(help).toMatch(/--same-site <value>\s+\(choices: "strict", "lax", "none"\)/);
    expect(help).toContain('$ bproxy cookie get -s m4q7z2');
  });

  it("refuses a value out of the schema's bounds as commander refuses any", async () => {
    const { calls, output } = await run(['cookie', 'get', '--limit', '99']);
    expect(calls).toEqual([]);
    expect(output.stderr).toContain('--limit must be between 1 and 50, got 99');
  });

  it('adds a new action of an existing group to that group, with an element argument for its target', async () => {
    expect((await run(['tab', 'mute', 'el3'])).calls).toEqual([
      { action: 'tab.mute', params: { target: 'el3' } },
    ]);
    expect((await run(['tab', 'mute', '--selector', 'video'])).calls).toEqual([
      { action: 'tab.mute', params: { target: { selector: 'video' } } },
    ]);
    const tabHelp = (await run(['tab', '--help'])).output.stdout;
    expect(tabHelp).toMatch(/mute \[options\] \[element\]\s+mute a tab/);
    const top = (await run(['--help'])).output.stdout;
    expect(top).toMatch(/More actions \(from the protocol\):\n {2}cookie\s+cookie actions: get\n/);
  });

  it('gives the new entry its row in the CLI reference', () => {
    const rows = referenceRows(commandTree([COOKIE_GET]));
    expect(rows[rows.length - 1]).toEqual({
      usage: '`bproxy -s ID cookie get --name V [--limit N] [--http-only] [--same-site strict\\|lax\\|none]`',
      does: 'read the cookies of the page',
    });
  });
});

describe("the README's CLI reference", () => {
  it('is the table the command definitions make', () => {
    const readme = readFileSync(join(import.meta.dirname, '../../../../README.md'), 'utf8');
    const start = readme.indexOf('<!-- cli:start -->');
    const end = readme.indexOf('<!-- cli:end -->');
    expect(start).toBeGreaterThan(0);
    const table = readme.slice(start + '<!-- cli:start -->'.length, end).trim();
    const expected = referenceTable(referenceRows(commandTree()));
    expect(table, 'run `node scripts/cli-reference.mjs` to write it').toBe(expected);
  });
});
