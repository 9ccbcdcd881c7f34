/** The `tab` group and its help: tabs are addressed by session-scoped handles (t1, t2). */
import { Command } from 'commander';
import { tabClose, tabList, tabOpen, tabPin, tabUnpin } from '../actions/sessions';
import { actionCommand, examples, type CommandContext } from './action-command';

export function tabCommand(context: CommandContext): Command {
  const tab = new Command('tab')
    .description('open, list, pin and close tabs')
    .addHelpText(
      'after',
      examples(
        'bproxy tab open --url https://example.com',
        'bproxy tab list -s m4q7z2',
        'bproxy tab close -s m4q7z2 t2',
      ),
    );
  const byHandle = (spec: typeof tabClose, name: string, description: string) =>
    actionCommand(
      spec,
      {
        description,
        args: { tab: 'tab handle, e.g. t2' },
        options: {},
        examples: [`bproxy tab ${name} -s m4q7z2`, `bproxy tab ${name} -s m4q7z2 t2`],
      },
      context,
    );
  for (const command of [
    actionCommand(
      tabOpen,
      {
        description: 'open a tab (creates and binds a session when -s is not given)',
        args: { url: 'the URL to load (same as --url)' },
        options: {
          url: 'the URL to load',
          browser: 'which connected browser opens it (see `bproxy debug status`)',
          background: 'do not make the tab active',
        },
        examples: [
          'bproxy tab open --url https://example.com',
          'bproxy tab open -s m4q7z2 https://example.com --browser headless',
        ],
      },
      context,
    ),
    actionCommand(
      tabList,
      {
        description: "list the session's tabs",
        args: {},
        options: {},
        examples: ['bproxy tab list -s m4q7z2'],
      },
      context,
    ),
    byHandle(tabClose, 'close', 'close a tab of the session (default: the bound one)'),
    byHandle(tabPin, 'pin', 'pin a tab in the browser (default: the bound one)'),
    byHandle(tabUnpin, 'unpin', 'unpin a tab (default: the bound one)'),
  ])
    tab.addCommand(command);
  return tab;
}
