/**
 * `bproxy extension path`: the built extension's folder alone on stdout, to choose in "Load
 * unpacked" (or to script: `cd "$(bproxy extension path)"`). Missing: a LOCAL_ERROR that says where
 * it looked. `bproxy extension ids`: the trusted ids, read from the one setting the daemon and the
 * native host read (an unsafe file: UNSAFE_STATE_FILE).
 */
import { Command } from 'commander';
import { examples } from '../actions/grammar';
import { CliError, EXIT } from '../cli-error';
import { printJson, writeLine } from '../output';
import { globalOptionsOf, type CommandContext, type CustomCommand } from './action-command';

function pathCommand(): Command {
  return new Command('path')
    .description('print the built extension\'s folder (the one to choose in "Load unpacked")')
    .addHelpText('after', `${examples('bproxy extension path')}\nOutput: the folder, alone on one line.\n`)
    .action(async () => {
      const { extensionFolderCandidates, findExtensionFolder } = await import('../host/extension-folder');
      const candidates = extensionFolderCandidates();
      const folder = findExtensionFolder(candidates);
      if (folder === null)
        throw new CliError(
          'LOCAL_ERROR',
          `the built extension is missing: no manifest.json in ${candidates.join(' or ')}`,
          EXIT.failure,
          'Reinstall bproxy; in a clone, run `npm run build`',
        );
      writeLine(folder);
    });
}

function idsCommand(context: CommandContext): Command {
  return new Command('ids')
    .description('the extension ids bproxy trusts: the built-in ones and BPROXY_HOME/extensions.json')
    .addHelpText(
      'after',
      `${examples('bproxy extension ids', 'bproxy host install --extension-id ID    # trust one more')}
Output: {"ids":[…],"builtIn":[…],"file":"…/extensions.json"}
`,
    )
    .action(async (_opts: unknown, cmd: Command) => {
      const lifecycle = await import('@bproxy/client/lifecycle');
      const paths = lifecycle.statePaths(lifecycle.resolveHome(context.env));
      let ids: readonly string[];
      try {
        ids = lifecycle.trustedExtensionIds(paths);
      } catch (error) {
        if (lifecycle.isLifecycleError(error))
          throw new CliError(
            error.kind === 'unsafe-state' ? 'UNSAFE_STATE_FILE' : 'LOCAL_ERROR',
            error.message,
            EXIT.failure,
          );
        throw error;
      }
      printJson(
        { ids, builtIn: lifecycle.builtInExtensionIds(), file: paths.extensions },
        globalOptionsOf(cmd, context.env).pretty,
      );
    });
}

export const EXTENSION: CustomCommand = {
  build: (context) =>
    new Command('extension')
      .description('the bproxy browser extension that ships with this CLI')
      .addHelpText(
        'after',
        `${examples('bproxy extension path')}
Load it in chrome://extensions (Developer mode, "Load unpacked"); its id is the same on every machine.
`,
      )
      .addCommand(pathCommand())
      .addCommand(idsCommand(context)),
  reference: [
    {
      usage: '`bproxy extension path`',
      does: 'print the built extension\'s folder, to choose in "Load unpacked"',
    },
    {
      usage: '`bproxy extension ids`',
      does: 'the extension ids the daemon and the native host accept (built-in + BPROXY_HOME/extensions.json)',
    },
  ],
};
