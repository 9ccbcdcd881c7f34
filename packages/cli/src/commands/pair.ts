/** The help of `bproxy pair` (a fresh one-time pairing code for the extension popup). */
import type { Command } from 'commander';
import { pair } from '../actions/pairing';
import { actionCommand, type CommandContext } from './action-command';

export function pairCommand(context: CommandContext): Command {
  return actionCommand(
    pair,
    {
      description: 'a fresh one-time pairing code for the extension popup (retires the previous code)',
      args: {},
      options: {},
      examples: ['bproxy pair', 'bproxy pair --pretty'],
      after:
        '\nThe code lasts 5 minutes and pairs once; type it into the bproxy popup with the port printed here.\n',
    },
    context,
  );
}
