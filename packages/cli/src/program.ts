/**
 * The `bproxy` command tree: global options, commands grouped for the top-level help, and the
 * error plumbing (commander never exits by itself; every failure goes through output.ts).
 */
import { Command } from 'commander';
import { BPROXY_VERSION } from '@bproxy/protocol/plain';
import { callCommand, debugCommand } from './commands/debug';
import { interactionCommands } from './commands/interaction';
import { navigationCommands } from './commands/navigation';
import { readCommands } from './commands/reads';
import { serviceCommand } from './commands/service';
import { sessionCommand } from './commands/sessions';
import { tabCommand } from './commands/tabs';
import { waitingCommands } from './commands/waiting';
import { addGlobalOptions } from './global-options';
import { examples } from './invoke';
import { writeUsageError } from './output';

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

export function buildProgram(pretty: boolean): Command {
  const program = addGlobalOptions(new Command('bproxy'))
    .description('Let AI agents drive real browsers safely, through one local daemon.')
    .version(BPROXY_VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help (every command has examples)')
    .helpCommand(false)
    .addHelpText('after', TOP_HELP);

  const groups: [string, Command[]][] = [
    ['Daemon:', [serviceCommand()]],
    ['Sessions and tabs:', [sessionCommand(), tabCommand()]],
    ['Navigation:', navigationCommands()],
    ['Reading the page (mints handles like el3, ln2):', readCommands()],
    ['Acting on the page:', [...interactionCommands(), ...waitingCommands()]],
    ['Debugging:', [debugCommand(), callCommand()]],
  ];
  for (const [heading, commands] of groups) {
    for (const command of commands) program.addCommand(command.helpGroup(heading));
  }

  // addCommand does not copy settings to subcommands: apply them to the whole tree.
  for (const command of allCommands(program)) {
    command.exitOverride().configureOutput({ outputError: (text) => writeUsageError(text, pretty) });
    command.showSuggestionAfterError(true).helpCommand(false);
  }
  return program;
}
