/**
 * `bproxy help [topic]`: `help agents` prints the guide for agents that drive the browser through the
 * CLI; `help COMMAND` shows that command's help; `help` alone the top-level help.
 */
import { Command } from 'commander';
import { usageError } from '../cli-error';
import type { CustomCommand } from './action-command';
import { AGENTS_GUIDE } from './agents-guide';

function helpCommand(): Command {
  return new Command('help')
    .description('help on a command, or `bproxy help agents`: the guide for AI agents')
    .argument('[topic]', '"agents" or a command name')
    .action((topic: string | undefined, _opts: unknown, cmd: Command) => {
      const program = cmd.parent;
      if (topic === 'agents') return void process.stdout.write(AGENTS_GUIDE);
      if (topic === undefined || program === null) return void program?.outputHelp();
      const target = program.commands.find((c) => c.name() === topic);
      if (target === undefined)
        throw usageError(`no help topic "${topic}"`, 'Try `bproxy help agents` or `bproxy --help`');
      target.outputHelp();
    });
}

export const HELP: CustomCommand = {
  build: helpCommand,
  reference: [{ usage: '`bproxy help agents`', does: 'a short guide for AI agents using the CLI' }],
};
