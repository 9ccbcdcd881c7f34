/**
 * Options every command accepts, wherever they appear on the line: the session, the deadline and
 * the output mode. `--json` (the default) is for programs, `--pretty` for people.
 */
import type { Command } from 'commander';
import { DEFAULT_TIMEOUT_MS, MAX_DEADLINE_MS } from '@bproxy/protocol/plain';
import { intOption } from './parsers';

export interface GlobalOptions {
  readonly session: string | undefined;
  readonly timeoutMs: number;
  readonly pretty: boolean;
}

export function addGlobalOptions(program: Command): Command {
  return program
    .option('-s, --session <id>', 'session id (default: $BPROXY_SESSION)')
    .option(
      '--timeout <ms>',
      `deadline for the daemon's answer in ms (default ${DEFAULT_TIMEOUT_MS})`,
      intOption('--timeout', 1, MAX_DEADLINE_MS),
    )
    .option('--pretty', 'readable output for people')
    .option('--json', 'JSON output for programs (the default)');
}

export function globalOptions(command: Command, env: NodeJS.ProcessEnv = process.env): GlobalOptions {
  const opts = command.optsWithGlobals<{
    session?: string;
    timeout?: number;
    pretty?: boolean;
    json?: boolean;
  }>();
  const fromEnv = env.BPROXY_SESSION;
  return {
    session: opts.session ?? (fromEnv !== undefined && fromEnv !== '' ? fromEnv : undefined),
    timeoutMs: opts.timeout ?? DEFAULT_TIMEOUT_MS,
    pretty: opts.pretty === true && opts.json !== true,
  };
}

/** Before commander has parsed anything (its own usage errors), the mode comes from a plain scan. */
export function prettyFromArgv(argv: readonly string[]): boolean {
  const args = argv.slice(0, argv.includes('--') ? argv.indexOf('--') : argv.length);
  return args.includes('--pretty') && !args.includes('--json');
}
