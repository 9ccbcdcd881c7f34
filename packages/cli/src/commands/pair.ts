/** `bproxy pair`: a fresh one-time pairing code for the extension's popup, from the running daemon. */
import { Command } from 'commander';
import { examples, invoke } from '../invoke';

export function pairCommand(): Command {
  return new Command('pair')
    .description('a fresh one-time pairing code for the extension popup (retires the previous code)')
    .addHelpText(
      'after',
      examples('bproxy pair', 'bproxy pair --pretty') +
        '\nThe code lasts 5 minutes and pairs once; type it into the bproxy popup with the port printed here.\n',
    )
    .action(async (_opts: unknown, cmd: Command) => {
      await invoke(cmd, { action: 'pairing.issue', params: {} });
    });
}
