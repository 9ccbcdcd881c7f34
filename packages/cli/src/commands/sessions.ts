/** `bproxy session …`: sessions are daemon-side state; none of these needs a browser. */
import { Command, Option } from 'commander';
import { examples, invoke } from '../invoke';
import { compact } from '../parsers';

const pacing = () => new Option('--pacing <mode>', 'pacing between actions').choices(['human', 'fast']);

export function sessionCommand(): Command {
  const session = new Command('session')
    .description('create, bind and close sessions')
    .addHelpText(
      'after',
      examples(
        'bproxy session create --label research',
        'bproxy session list',
        'bproxy session bind -s m4q7z2 --tab t2',
      ),
    );

  session
    .command('create')
    .description('create a session and print its id')
    .option('--label <label>', 'a name for people (1-64 characters)')
    .addOption(pacing())
    .option('--browser <name>', 'open its tabs in this browser (`bproxy debug status` lists them)')
    .addHelpText(
      'after',
      examples(
        'bproxy session create',
        'bproxy session create --label shopping --pacing fast',
        'bproxy session create --browser chrome',
      ),
    )
    .action(async (opts: { label?: string; pacing?: string; browser?: string }, cmd: Command) => {
      await invoke(cmd, {
        action: 'session.create',
        params: compact({ label: opts.label, pacing: opts.pacing, browser: opts.browser }),
      });
    });

  session
    .command('list')
    .description('list the sessions of the daemon')
    .addHelpText('after', examples('bproxy session list --pretty'))
    .action(async (_opts: unknown, cmd: Command) => {
      await invoke(cmd, { action: 'session.list', params: {} });
    });

  session
    .command('bind')
    .description('bind the session to one of its tabs and/or change its pacing')
    .option('--tab <tab>', 'tab handle, e.g. t2')
    .addOption(pacing())
    .addHelpText(
      'after',
      examples('bproxy session bind -s m4q7z2 --tab t2', 'bproxy session bind -s m4q7z2 --pacing fast'),
    )
    .action(async (opts: { tab?: string; pacing?: string }, cmd: Command) => {
      await invoke(cmd, { action: 'session.bind', params: compact({ tab: opts.tab, pacing: opts.pacing }) });
    });

  const simple: [string, string, string][] = [
    ['unbind', 'session.unbind', 'clear the tab binding (and a pause)'],
    ['resume', 'session.resume', 'resume a session paused for a human'],
    ['close', 'session.close', 'close the session and its tabs'],
  ];
  for (const [name, action, description] of simple) {
    session
      .command(name)
      .description(description)
      .addHelpText('after', examples(`bproxy session ${name} -s m4q7z2`))
      .action(async (_opts: unknown, cmd: Command) => {
        await invoke(cmd, { action, params: {} });
      });
  }
  return session;
}
