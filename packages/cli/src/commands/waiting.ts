/** wait and dialog: synchronizing with the page, and answering the JavaScript dialogs it opens. */
import { Argument, Command, Option } from 'commander';
import { usageError } from '../cli-error';
import { examples, invoke } from '../invoke';
import { compact, elementTarget, intOption } from '../parsers';

function waitCommand(): Command {
  return new Command('wait')
    .description('wait for text, an element, or a navigation')
    .option('--text <text>', 'until this text is on the page')
    .option('--selector <css>', 'until an element matches this selector')
    .option('--handle <element>', 'until this element reaches --state')
    .option('--navigation', 'until the tab navigates')
    .addOption(
      new Option('--state <state>', 'for --selector/--handle').choices([
        'visible',
        'hidden',
        'attached',
        'detached',
      ]),
    )
    .addOption(
      new Option('--timeout-ms <ms>', 'give up after this long (0-300000)').argParser(
        intOption('--timeout-ms', 0, 300_000),
      ),
    )
    .addHelpText(
      'after',
      examples(
        'bproxy wait -s m4q7z2 --text "Order confirmed"',
        'bproxy wait -s m4q7z2 --selector .results --state visible',
        'bproxy wait -s m4q7z2 --navigation --timeout-ms 10000',
      ),
    )
    .action(
      async (
        opts: {
          text?: string;
          selector?: string;
          handle?: string;
          navigation?: boolean;
          state?: string;
          timeoutMs?: number;
        },
        cmd: Command,
      ) => {
        const given = [opts.text, opts.selector, opts.handle, opts.navigation].filter(
          (v) => v !== undefined,
        ).length;
        if (given !== 1) throw usageError('give exactly one of --text, --selector, --handle or --navigation');
        const target = opts.handle === undefined ? undefined : elementTarget(opts.handle, undefined, true);
        const params = compact({
          text: opts.text,
          selector: opts.selector,
          target,
          navigation: opts.navigation,
          state: opts.state,
          timeoutMs: opts.timeoutMs,
        });
        await invoke(cmd, { action: 'wait', params });
      },
    );
}

function dialogCommand(): Command {
  return new Command('dialog')
    .description('accept or dismiss the open JavaScript dialog')
    .addArgument(new Argument('<answer>', 'accept or dismiss').choices(['accept', 'dismiss']))
    .option('--text <text>', 'text to enter in a prompt() before accepting')
    .addHelpText(
      'after',
      examples(
        'bproxy dialog -s m4q7z2 accept',
        'bproxy dialog -s m4q7z2 accept --text "my answer"',
        'bproxy dialog -s m4q7z2 dismiss',
      ),
    )
    .action(async (answer: string, opts: { text?: string }, cmd: Command) => {
      if (answer === 'dismiss' && opts.text !== undefined) throw usageError('--text only goes with accept');
      await invoke(cmd, {
        action: 'dialog',
        params: compact({ accept: answer === 'accept', promptText: opts.text }),
      });
    });
}

export function waitingCommands(): Command[] {
  return [waitCommand(), dialogCommand()];
}
