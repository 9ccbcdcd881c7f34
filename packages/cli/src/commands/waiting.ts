/** The help of wait and dialog. */
import type { Command } from 'commander';
import { dialog, wait } from '../actions/waiting';
import { actionCommand, type CommandContext } from './action-command';

export function waitingCommands(context: CommandContext): Command[] {
  return [
    actionCommand(
      wait,
      {
        description: 'wait for text, an element, or a navigation',
        args: {},
        options: {
          text: 'until this text is on the page',
          selector: 'until an element matches this selector',
          handle: 'until this element reaches --state',
          navigation: 'until the tab navigates',
          state: 'for --selector/--handle',
          timeoutMs: 'give up after this long (0-300000)',
        },
        examples: [
          'bproxy wait -s m4q7z2 --text "Order confirmed"',
          'bproxy wait -s m4q7z2 --selector .results --state visible',
          'bproxy wait -s m4q7z2 --navigation --timeout-ms 10000',
        ],
      },
      context,
    ),
    actionCommand(
      dialog,
      {
        description: 'accept or dismiss the open JavaScript dialog',
        args: { answer: 'accept or dismiss' },
        options: { text: 'text to enter in a prompt() before accepting' },
        examples: [
          'bproxy dialog -s m4q7z2 accept',
          'bproxy dialog -s m4q7z2 accept --text "my answer"',
          'bproxy dialog -s m4q7z2 dismiss',
        ],
      },
      context,
    ),
  ];
}
