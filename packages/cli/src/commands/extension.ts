/**
 * `bproxy extension path`: the built extension's folder alone on stdout, to choose in "Load
 * unpacked" (or to script: `cd "$(bproxy extension path)"`). Missing: a LOCAL_ERROR that says where
 * it looked.
 */
import { Command } from 'commander';
import { examples } from '../actions/grammar';
import { CliError, EXIT } from '../cli-error';
import { writeLine } from '../output';
import type { CustomCommand } from './action-command';

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

export const EXTENSION: CustomCommand = {
  build: () =>
    new Command('extension')
      .description('the bproxy browser extension that ships with this CLI')
      .addHelpText(
        'after',
        `${examples('bproxy extension path')}
Load it in chrome://extensions (Developer mode, "Load unpacked"); its id is the same on every machine.
`,
      )
      .addCommand(pathCommand()),
  reference: [
    {
      usage: '`bproxy extension path`',
      does: 'print the built extension\'s folder, to choose in "Load unpacked"',
    },
  ],
};
