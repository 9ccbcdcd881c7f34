/**
 * `bproxy mcp`: a stdio MCP server for MCP clients (Claude Code, Cursor, …). The server lives in its
 * own bundle next to this one (dist/mcp.mjs), imported only when this command runs.
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Command, Option } from 'commander';
import { usageError } from '../cli-error';
import { examples } from './action-command';
import { besideCli } from '../runtime';

interface McpModule {
  serveMcp(options: { pacing: 'human' | 'fast'; browser?: string }): Promise<void>;
}

function isMcpModule(value: unknown): value is McpModule {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { serveMcp?: unknown }).serveMcp === 'function'
  );
}

export function mcpCommand(): Command {
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
    .addHelpText(
      'after',
      `${examples(
        'bproxy mcp                                      # in an MCP client configuration',
        'bproxy mcp --pacing fast                        # no human-like delays',
        'bproxy mcp --browser chrome                     # your paired Chrome instead of the headless one',
      )}
Every client connection gets its own session; its tabs are closed when the client disconnects.
Logs go to stderr; stdout carries only MCP messages.
`,
    )
    .action(async (opts: { pacing: 'human' | 'fast'; browser?: string }) => {
      // Next to this bundle on Node, next to the executable when compiled.
      const bundle = besideCli('mcp.mjs');
      if (!existsSync(bundle))
        throw usageError(`the MCP bundle is missing (${bundle})`, 'Run `npm run build`');
      const mod: unknown = await import(pathToFileURL(bundle).href);
      if (!isMcpModule(mod))
        throw usageError('the MCP bundle does not export serveMcp', 'Run `npm run build`');
      await mod.serveMcp(
        opts.browser === undefined ? { pacing: opts.pacing } : { pacing: opts.pacing, browser: opts.browser },
      );
    });
}
