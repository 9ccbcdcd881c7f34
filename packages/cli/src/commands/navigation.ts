/** navigate, back, forward, reload: page loads in the session's bound tab (navigate opens one if none). */
import { Command, Option } from 'commander';
import { examples, invoke } from '../invoke';
import { compact } from '../parsers';

const waitUntil = () =>
  new Option('--wait-until <event>', 'when the load counts as done').choices([
    'load',
    'domcontentloaded',
    'none',
  ]);

export function navigationCommands(): Command[] {
  const navigate = new Command('navigate')
    .description('load a URL in the bound tab (opens a tab when the session has none)')
    .argument('<url>', 'the URL to load')
    .addOption(waitUntil())
    .addHelpText(
      'after',
      examples(
        'bproxy navigate -s m4q7z2 https://example.com',
        'bproxy navigate -s m4q7z2 https://example.com --wait-until domcontentloaded',
      ),
    )
    .action(async (url: string, opts: { waitUntil?: string }, cmd: Command) => {
      await invoke(cmd, { action: 'navigate', params: compact({ url, waitUntil: opts.waitUntil }) });
    });

  const history: [string, string][] = [
    ['back', 'go back in history'],
    ['forward', 'go forward in history'],
    ['reload', 'reload the page'],
  ];
  return [
    navigate,
    ...history.map(([name, description]) =>
      new Command(name)
        .description(description)
        .addOption(waitUntil())
        .addHelpText('after', examples(`bproxy ${name} -s m4q7z2`))
        .action(async (opts: { waitUntil?: string }, cmd: Command) => {
          await invoke(cmd, { action: name, params: compact({ waitUntil: opts.waitUntil }) });
        }),
    ),
  ];
}
