/**
 * Commander commands from the definitions (actions/): an action command's arguments, options and help
 * texts come from its definition, a group's subcommands from the group. Also the global options on the
 * program, and what the other commands of the tree share.
 */
import { Argument, Command, InvalidArgumentError, Option } from 'commander';
import type { Env } from '@bproxy/client';
import { DEFAULT_TIMEOUT_MS } from '@bproxy/protocol/plain';
import {
  examples,
  optionNames,
  readInt,
  type ActionCall,
  type ActionCommand,
  type ActionGroup,
  type ArgSpec,
  type ArgValues,
  type OptionSpec,
  type OptionSpecs,
  type OptionValues,
  type ReferenceRow,
} from '../actions/grammar';
import { GLOBAL_OPTIONS, resolveGlobals, type GlobalOptions, type GlobalValues } from '../global-options';

/** Runs the call of a parsed action command line (runAction; a test may record it instead). */
export type ActionRunner = (globals: GlobalOptions, call: ActionCall) => Promise<void>;

/** What the commands of the tree need from the process: its environment, and who runs an action. */
export interface CommandContext {
  readonly env: Env;
  readonly run: ActionRunner;
}

/** A command that is not one protocol action (service, mcp, …): its commander tree and README rows. */
export interface CustomCommand {
  build(context: CommandContext): Command;
  readonly reference: readonly ReferenceRow[];
}

/** A commander argument parser for an integer in [min, max]; "12px", "1e3" or "3.5" are refused. */
export function intOption(name: string, min: number, max: number): (raw: string) => number {
  return (raw) => {
    const value = readInt(name, min, max, raw);
    if (typeof value === 'string') throw new InvalidArgumentError(value);
    return value;
  };
}

function commanderOption(spec: OptionSpec, description: string): Option {
  const option = new Option(spec.flags, description);
  switch (spec.value.kind) {
    case 'int':
      return option.argParser(intOption(optionNames(spec).long, spec.value.min, spec.value.max));
    case 'choice':
      return option.choices(spec.value.choices);
    case 'flag':
    case 'text':
      return option;
  }
}

function commanderArgument(spec: ArgSpec, description: string): Argument {
  const syntax = { required: `<${spec.name}>`, optional: `[${spec.name}]`, variadic: `[${spec.name}...]` };
  const argument = new Argument(syntax[spec.arity], description);
  return spec.choices === undefined ? argument : argument.choices(spec.choices);
}

/** Adds the options of `specs` to `command`, each keyed the way the grammar keys it. */
function addOptions(command: Command, specs: OptionSpecs, help: Readonly<Record<string, string>>): void {
  for (const [key, spec] of Object.entries(specs)) {
    const option = commanderOption(spec, help[key] ?? '');
    // The grammar's key is the property the parsers fill: it must be commander's name for the flag.
    if (option.attributeName() !== key)
      throw new Error(`option ${spec.flags} must be keyed ${option.attributeName()}`);
    command.addOption(option);
  }
}

const GLOBAL_HELP: { readonly [K in keyof typeof GLOBAL_OPTIONS]: string } = {
  session: 'session id (default: $BPROXY_SESSION)',
  timeout: `deadline for the daemon's answer in ms (default ${DEFAULT_TIMEOUT_MS})`,
  pretty: 'readable output for people',
  json: 'JSON output for programs (the default)',
};

export function addGlobalOptions(program: Command): Command {
  addOptions(program, GLOBAL_OPTIONS, GLOBAL_HELP);
  return program;
}

/** The global options as a command of the tree sees them (given before or after its name). */
export function globalOptionsOf(command: Command, env: Env): GlobalOptions {
  return resolveGlobals(command.optsWithGlobals<GlobalValues>(), env);
}

/** The commander command of an action command, with its help. */
export function actionCommand<A extends readonly ArgSpec[], O extends OptionSpecs>(
  spec: ActionCommand<A, O>,
  context: CommandContext,
): Command {
  const help = spec.help();
  const name = spec.path[spec.path.length - 1] ?? '';
  const command = new Command(name).description(help.description);
  const argHelp: Readonly<Record<string, string>> = help.args;
  for (const arg of spec.args) command.addArgument(commanderArgument(arg, argHelp[arg.name] ?? ''));
  addOptions(command, spec.options, help.options);
  command.addHelpText('after', `${examples(...help.examples)}${help.after ?? ''}`);
  // Commander passes the arguments in order, then the options, then the command itself.
  return command.action(async (...values: unknown[]) => {
    const args = values.slice(0, spec.args.length) as unknown as ArgValues<A>;
    const call = spec.call(args, command.opts<OptionValues<O>>());
    await context.run(globalOptionsOf(command, context.env), call);
  });
}

/** The commander command of a group (`session`, `tab`, `debug`), its subcommands in order. */
export function groupCommand(group: ActionGroup, context: CommandContext): Command {
  const help = group.help();
  const command = new Command(group.name)
    .description(help.description)
    .addHelpText('after', examples(...help.examples));
  for (const spec of group.commands) command.addCommand(actionCommand(spec, context));
  return command;
}
