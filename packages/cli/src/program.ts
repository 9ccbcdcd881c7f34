/**
 * The `bproxy` command tree: global options, commands grouped for the top-level help, and the
 * error plumbing (commander never exits by itself; every failure goes through output.ts). This is the
 * full path of the CLI: main.ts runs ordinary action lines without it (fast-path.ts), and hands it
 * everything else — help, usage errors, service, mcp, bridge, anything unusual.
 */
import { Command, CommanderError } from 'commander';
import type { Env } from '@bproxy/client';
import { BPROXY_VERSION } from '@bproxy/protocol/plain';
import { examples } from './actions/grammar';
import { entryName, isCustom, isGroup, type Section, type TreeEntry } from './actions/index';
import { EXIT, type ExitCode } from './cli-error';
import {
  actionCommand,
  addGlobalOptions,
  groupCommand,
  type ActionRunner,
  type CommandContext,
} from './commands/action-command';
import { CUSTOM, commandTree } from './commands/tree';
import { prettyFromArgv } from './global-options';
import { reportFailure, writeErrorText, writeText, writeUsageError } from './output';

const TOP_HELP = `${examples(
  'bproxy service start',
  'bproxy tab open --url https://example.com          # prints the new session id',
  'bproxy elements -s m4q7z2 --role button',
  'bproxy click -s m4q7z2 el3',
  'bproxy text -s m4q7z2 --pretty',
)}
Exit codes: 0 ok, 1 the action failed (error on stderr), 2 usage error, 3 no daemon running.
State: BPROXY_HOME (default ~/.bproxy). Every command takes -s/--session (or $BPROXY_SESSION).
`;

function allCommands(command: Command): Command[] {
  return [command, ...command.commands.flatMap(allCommands)];
}

/** The commander command of an entry of the tree. */
function entryCommand(entry: TreeEntry, context: CommandContext): Command {
  if (isCustom(entry)) return CUSTOM[entry.custom].build(context);
  if (isGroup(entry)) return groupCommand(entry, context);
  return actionCommand(entry, context);
}

/** Global options that take a value (the word after them is not the command). */
const VALUE_OPTIONS = new Set(['-s', '--session', '--timeout']);
const FLAG_OPTIONS = new Set(['--pretty', '--json']);

/**
 * The command word of a command line, when it can be told without parsing: the first word after the
 * global options. Anything unusual (help, version, an unknown option) answers undefined.
 */
export function commandWord(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (VALUE_OPTIONS.has(arg)) i++;
    else if (FLAG_OPTIONS.has(arg) || /^(--session=|--timeout=|-s.)/.test(arg)) continue;
    else return arg.startsWith('-') ? undefined : arg;
  }
  return undefined;
}

/** Runs an action line's call with the client (loaded when an action actually runs). */
function runWithClient(env: Env): ActionRunner {
  return async (globals, call) => {
    const { runAction } = await import('./run-action');
    await runAction(globals, call, env);
  };
}

/**
 * The command tree for `args` (argv without node and the script). Building every command costs the
 * compiled CLI milliseconds on each run, so when the command word is known only its section is
 * built; help, version and anything commander must explain (an unknown command) get the whole tree.
 * `sections` is the tree (commands/tree.ts; a test may add derived commands of its own).
 */
export function buildProgram(
  pretty: boolean,
  args?: readonly string[],
  context: CommandContext = { env: process.env, run: runWithClient(process.env) },
  sections: readonly Section[] = commandTree(),
): Command {
  const program = addGlobalOptions(new Command('bproxy'))
    .description('Let AI agents drive real browsers safely, through one local daemon.')
    .version(BPROXY_VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help (every command has examples)')
    .helpCommand(false)
    .addHelpText('after', TOP_HELP);

  const word = args === undefined ? undefined : commandWord(args);
  // `help COMMAND` looks the command up in the tree, so it needs all of it.
  const only =
    word === 'help' ? undefined : sections.find((s) => s.entries.some((e) => entryName(e) === word));
  for (const section of only === undefined ? sections : [only]) {
    for (const entry of section.entries)
      program.addCommand(entryCommand(entry, context).helpGroup(section.heading));
  }

  // addCommand does not copy settings to subcommands: apply them to the whole tree.
  for (const command of allCommands(program)) {
    command.exitOverride().configureOutput({
      outputError: (text) => writeUsageError(text, pretty),
      writeOut: writeText,
      writeErr: writeErrorText,
    });
    command.showSuggestionAfterError(true).helpCommand(false);
  }
  return program;
}

/** The exit code for one of commander's own errors, which it has printed already (writeUsageError). */
function commanderExit(error: CommanderError): ExitCode {
  // Help and version are not failures.
  return error.code === 'commander.helpDisplayed' || error.code === 'commander.version'
    ? EXIT.ok
    : EXIT.usage;
}

/** Runs one command line (argv without node and the script) through commander; its exit code. */
export async function runProgram(args: readonly string[], env: Env): Promise<ExitCode> {
  const pretty = prettyFromArgv(args);
  try {
    await buildProgram(pretty, args, { env, run: runWithClient(env) }).parseAsync(args, { from: 'user' });
    // A command that reported its own failure (setup, doctor) set the exit code: keep it.
    const set = process.exitCode;
    return typeof set === 'number' && set !== 0 ? (set as ExitCode) : EXIT.ok;
  } catch (error) {
    return error instanceof CommanderError ? commanderExit(error) : reportFailure(error, pretty);
  }
}
