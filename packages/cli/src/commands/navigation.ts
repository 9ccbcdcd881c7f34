/** The help of navigate, back, forward and reload. */
import type { Command } from 'commander';
import { back, forward, navigate, reload } from '../actions/navigation';
import { actionCommand, type CommandContext } from './action-command';

const WAIT_UNTIL = 'when the load counts as done';

export function navigationCommands(context: CommandContext): Command[] {
  const history = (spec: typeof back, description: string, name: string) =>
    actionCommand(
      spec,
      { description, args: {}, options: { waitUntil: WAIT_UNTIL }, examples: [`bproxy ${name} -s m4q7z2`] },
      context,
    );
  return [
    actionCommand(
      navigate,
      {
        description: 'load a URL in the bound tab (opens a tab when the session has none)',
        args: { url: 'the URL to load' },
        options: { waitUntil: WAIT_UNTIL },
        examples: [
          'bproxy navigate -s m4q7z2 https://example.com',
          'bproxy navigate -s m4q7z2 https://example.com --wait-until domcontentloaded',
        ],
      },
      context,
    ),
    history(back, 'go back in history', 'back'),
    history(forward, 'go forward in history', 'forward'),
    history(reload, 'reload the page', 'reload'),
  ];
}
