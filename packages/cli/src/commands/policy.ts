/**
 * `bproxy policy` (`policy show`): the site policy a person set, read from BPROXY_HOME/policy.json with
 * the checks the daemon makes (an unsafe or malformed file: UNSAFE_STATE_FILE). Read-only on purpose:
 * no bproxy command writes the policy; a person edits the file or uses the side panel's Policy view.
 */
import { Command } from 'commander';
import { examples } from '../actions/grammar';
import { CliError, EXIT } from '../cli-error';
import { printJson } from '../output';
import { globalOptionsOf, type CommandContext, type CustomCommand } from './action-command';

const SHAPE = `Output: {"file":"…/policy.json","exists":true|false,"policy":{"version":1,"default":"allow",
"origins":{"https://bank.example":{"rule":"deny"}}}} (no file: every origin allowed).
Change it by hand (mode 0600) or in the extension's side panel (Policy); no bproxy command writes it.
`;

function show(context: CommandContext) {
  return async (_opts: unknown, cmd: Command): Promise<void> => {
    const lifecycle = await import('@bproxy/client/lifecycle');
    const paths = lifecycle.statePaths(lifecycle.resolveHome(context.env));
    try {
      const exists = lifecycle.checkStateFile(paths.policy);
      const policy = lifecycle.loadPolicy(paths);
      printJson({ file: paths.policy, exists, policy }, globalOptionsOf(cmd, context.env).pretty);
    } catch (error) {
      if (lifecycle.isLifecycleError(error))
        throw new CliError(
          error.kind === 'unsafe-state' ? 'UNSAFE_STATE_FILE' : 'LOCAL_ERROR',
          error.message,
          EXIT.failure,
        );
      throw error;
    }
  };
}

export const POLICY: CustomCommand = {
  build: (context) =>
    new Command('policy')
      .description('show the site policy agents obey (BPROXY_HOME/policy.json; read-only)')
      .addHelpText('after', `${examples('bproxy policy', 'bproxy policy show --pretty')}\n${SHAPE}`)
      .action(show(context))
      .addCommand(
        new Command('show')
          .description('show the site policy (the same as `bproxy policy`)')
          .addHelpText('after', SHAPE)
          .action(show(context)),
      ),
  reference: [
    {
      usage: '`bproxy policy` (`policy show`)',
      does: 'show the site policy agents obey (read-only: a person edits policy.json or the side panel)',
    },
  ],
};
