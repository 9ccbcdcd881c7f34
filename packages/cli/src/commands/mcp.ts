/**
 * `bproxy mcp`: a stdio MCP server for MCP clients (Claude Code, Cursor, …). The server lives in its
 * own bundle next to this one (dist/mcp.mjs), imported only when this command runs.
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { CAPABILITY_GROUPS, isCapabilityGroup, SESSION_ID_PATTERN } from '@bproxy/protocol';
import { Command, Option } from 'commander';
import { usageError } from '../cli-error';
import { examples } from '../actions/grammar';
import type { CommandContext, CustomCommand } from './action-command';
import { mcpConfigCommand } from './mcp-config';
import { besideCli } from '../runtime';

interface McpModule {
  serveMcp(options: {
    pacing: 'human' | 'fast';
    browser?: string;
    session?: string;
    caps?: string;
  }): Promise<void>;
}

function isMcpModule(value: unknown): value is McpModule {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { serveMcp?: unknown }).serveMcp === 'function'
  );
}

function mcpCommand(context: CommandContext): Command {
  return new Command('mcp')
    .description('serve MCP on stdin/stdout; one session per client, starts the daemon if needed')
    .addOption(
      new Option('--pacing <mode>', 'pacing of the session: human (default) or fast')
        .choices(['human', 'fast'])
        .default('human'),
    )
    .option(
      '--browser <name>',
      'open tabs in this connected browser (e.g. your paired Chrome); see `bproxy debug status`',
    )
    .option(
      '--caps <groups>',
      `tool groups offered besides core, comma-separated, or all: ${CAPABILITY_GROUPS.filter((g) => g !== 'core').join(', ')}`,
    )
    .addHelpText(
      'after',
      `${examples(
        'bproxy mcp                                      # in an MCP client configuration',
        'bproxy mcp --pacing fast                        # no human-like delays',
        'bproxy mcp --browser chrome                     # your paired Chrome instead of the headless one',
        'bproxy mcp --session m4q7z2                     # act in an existing session (a tab you shared)',
        'bproxy mcp --caps debug,network                 # offer these tool groups too (or --caps all)',
      )}
Tools come in groups: core (tabs, navigation, reads, actions, waits, batch) is offered by default;
--caps adds others, and a client opens more at run time with the capabilities tool.
Every client connection gets its own session; its tabs are closed when the client disconnects.
A daemon this command starts stops by itself once no agent has used it for BPROXY_IDLE_EXIT
(default 15m; off: never), and its browser closes after BPROXY_BROWSER_IDLE without a tab (default 5m).
With -s/--session ID the server acts in that existing session instead, and leaves it open.
Logs go to stderr; stdout carries only MCP messages.
`,
    )
    .action(async (opts: { pacing: 'human' | 'fast'; browser?: string; caps?: string }, command: Command) => {
      // The global -s/--session, given explicitly: BPROXY_SESSION alone does not bind the server.
      const session = command.optsWithGlobals<{ session?: string }>().session;
      if (session !== undefined && !SESSION_ID_PATTERN.test(session))
        throw usageError(`--session must be a session id like m4q7z2, got "${session}"`);
      const unknown = (opts.caps ?? '')
        .split(',')
        .map((g) => g.trim())
        .filter((g) => g !== '' && g !== 'all' && !isCapabilityGroup(g));
      if (unknown.length > 0)
        throw usageError(
          `--caps: unknown group "${unknown.join('", "')}"`,
          `Name groups of ${CAPABILITY_GROUPS.join(', ')}, or all`,
        );
      // Next to this bundle on Node, next to the executable when compiled.
      const bundle = besideCli('mcp.mjs');
      if (!existsSync(bundle))
        throw usageError(`the MCP bundle is missing (${bundle})`, 'Run `npm run build`');
      const mod: unknown = await import(pathToFileURL(bundle).href);
      if (!isMcpModule(mod))
        throw usageError('the MCP bundle does not export serveMcp', 'Run `npm run build`');
      await mod.serveMcp({
        pacing: opts.pacing,
        ...(opts.browser === undefined ? {} : { browser: opts.browser }),
        ...(session === undefined ? {} : { session }),
        ...(opts.caps === undefined ? {} : { caps: opts.caps }),
      });
    })
    .addCommand(mcpConfigCommand(context));
}

export const MCP: CustomCommand = {
  build: mcpCommand,
  reference: [
    {
      usage: '`bproxy mcp [--pacing human\\|fast] [--browser NAME] [--caps GROUPS\\|all]`',
      does: 'a stdio MCP server (see [MCP server](#mcp-server))',
    },
    {
      usage: '`bproxy mcp config CLIENT [--write] [--no-skill]`',
      does: "a client's MCP entry with this installation's paths; `--write` adds it to the client's file (backup first), with the skill",
    },
  ],
};
