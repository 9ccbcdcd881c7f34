/** `bproxy tab …`: tabs are addressed by session-scoped handles (t1, t2); raw browser ids never show. */
import { Command } from 'commander';
import { usageError } from '../cli-error';
import { examples, invoke } from '../invoke';
import { compact } from '../parsers';

export function tabCommand(): Command {
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

  tab
    .command('open')
    .description('open a tab (creates and binds a session when -s is not given)')
    .argument('[url]', 'the URL to load (same as --url)')
    .option('--url <url>', 'the URL to load')
    .option('--browser <name>', 'which connected browser opens it (see `bproxy debug status`)')
    .option('--background', 'do not make the tab active')
    .addHelpText(
      'after',
      examples(
        'bproxy tab open --url https://example.com',
        'bproxy tab open -s m4q7z2 https://example.com --browser headless',
      ),
    )
    .action(
      async (
        url: string | undefined,
        opts: { url?: string; browser?: string; background?: boolean },
        cmd: Command,
      ) => {
        if (url !== undefined && opts.url !== undefined)
          throw usageError('give the URL once: as an argument or with --url');
        const params = compact({
          url: url ?? opts.url,
          browser: opts.browser,
          active: opts.background ? false : undefined,
        });
        await invoke(cmd, { action: 'tab.open', params });
      },
    );

  tab
    .command('list')
    .description("list the session's tabs")
    .addHelpText('after', examples('bproxy tab list -s m4q7z2'))
    .action(async (_opts: unknown, cmd: Command) => {
      await invoke(cmd, { action: 'tab.list', params: {} });
    });

  const byHandle: [string, string, string][] = [
    ['close', 'tab.close', 'close a tab of the session (default: the bound one)'],
    ['pin', 'tab.pin', 'pin a tab in the browser (default: the bound one)'],
    ['unpin', 'tab.unpin', 'unpin a tab (default: the bound one)'],
  ];
  for (const [name, action, description] of byHandle) {
    tab
      .command(name)
      .description(description)
      .argument('[tab]', 'tab handle, e.g. t2')
      .addHelpText('after', examples(`bproxy tab ${name} -s m4q7z2`, `bproxy tab ${name} -s m4q7z2 t2`))
      .action(async (handle: string | undefined, _opts: unknown, cmd: Command) => {
        await invoke(cmd, { action, params: compact({ tab: handle }) });
      });
  }
  return tab;
}
