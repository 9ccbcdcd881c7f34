/**
 * The `bproxy` command tree: global options, commands grouped for the top-level help, and the
 * error plumbing (commander never exits by itself; every failure goes through output.ts).
 */
import { Command } from 'commander';
import { BPROXY_VERSION } from '@bproxy/protocol/plain';
import { agentCommand } from './commands/agent';
import { bridgeCommand } from './commands/bridge';
import { pairCommand } from './commands/pair';
import { callCommand, debugCommand } from './commands/debug';
import { helpCommand } from './commands/help';
import { hostCommand, setupCommand } from './commands/host';
import { interactionCommands } from './commands/interaction';
import { mcpCommand } from './commands/mcp';
import { navigationCommands } from './commands/navigation';
import { readCommands } from './commands/reads';
import { serviceCommand } from './commands/service';
import { sessionCommand } from './commands/sessions';
import { tabCommand } from './commands/tabs';
import { waitingCommands } from './commands/waiting';
import { addGlobalOptions } from './global-options';
import { examples } from './invoke';
import { writeErrorText, writeText, writeUsageError } from './output';

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

interface Group {
  readonly heading: string;
  /** The names of the commands `commands()` builds (a test keeps the two equal). */
  readonly names: readonly string[];
  readonly commands: () => Command[];
}

export const GROUPS: readonly Group[] = [
  { heading: 'Daemon:', names: ['service', 'pair'], commands: () => [serviceCommand(), pairCommand()] },
  {
    heading: 'Sessions and tabs:',
    names: ['session', 'tab'],
    commands: () => [sessionCommand(), tabCommand()],
  },
  { heading: 'Navigation:', names: ['navigate', 'back', 'forward', 'reload'], commands: navigationCommands },
  {
    heading: 'Reading the page (mints handles like el3, ln2):',
    names: ['text', 'links', 'elements', 'inspect', 'snapshot', 'screenshot'],
    commands: readCommands,
  },
  {
    heading: 'Acting on the page:',
    names: ['scroll', 'click', 'hover', 'fill', 'type', 'press', 'select', 'wait', 'dialog'],
    commands: () => [...interactionCommands(), ...waitingCommands()],
  },
  { heading: 'Debugging:', names: ['debug', 'call'], commands: () => [debugCommand(), callCommand()] },
  {
    heading: 'Agents:',
    names: ['mcp', 'agent', 'help'],
    commands: () => [mcpCommand(), agentCommand(), helpCommand()],
  },
  { heading: 'CDP tools:', names: ['bridge'], commands: () => [bridgeCommand()] },
  { heading: 'Browser setup:', names: ['setup', 'host'], commands: () => [setupCommand(), hostCommand()] },
];

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

/**
 * The command tree for `args` (argv without node and the script). Building every command costs the
 * compiled CLI milliseconds on each run, so when the command word is known only its group is built;
 * help, version and anything commander must explain (an unknown command) get the whole tree.
 */
export function buildProgram(pretty: boolean, args?: readonly string[]): Command {
  const program = addGlobalOptions(new Command('bproxy'))
    .description('Let AI agents drive real browsers safely, through one local daemon.')
    .version(BPROXY_VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help (every command has examples)')
    .helpCommand(false)
    .addHelpText('after', TOP_HELP);

  const word = args === undefined ? undefined : commandWord(args);
  // `help COMMAND` looks the command up in the tree, so it needs all of it.
  const only = word === 'help' ? undefined : GROUPS.find((g) => word !== undefined && g.names.includes(word));
  for (const group of only === undefined ? GROUPS : [only]) {
    for (const command of group.commands()) program.addCommand(command.helpGroup(group.heading));
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
