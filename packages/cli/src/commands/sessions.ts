/** The `session` group and its help: sessions are daemon-side state; none of these needs a browser. */
import { Command } from 'commander';
import {
  sessionBind,
  sessionClose,
  sessionCreate,
  sessionList,
  sessionResume,
  sessionUnbind,
} from '../actions/sessions';
import { actionCommand, examples, type CommandContext } from './action-command';

const PACING = 'pacing between actions';

export function sessionCommand(context: CommandContext): Command {
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
  const simple = (spec: typeof sessionUnbind, name: string, description: string) =>
    actionCommand(
      spec,
      { description, args: {}, options: {}, examples: [`bproxy session ${name} -s m4q7z2`] },
      context,
    );
  for (const command of [
    actionCommand(
      sessionCreate,
      {
        description: 'create a session and print its id',
        args: {},
        options: {
          label: 'a name for people (1-64 characters)',
          pacing: PACING,
          browser: 'open its tabs in this browser (`bproxy debug status` lists them)',
        },
        examples: [
          'bproxy session create',
          'bproxy session create --label shopping --pacing fast',
          'bproxy session create --browser chrome',
        ],
      },
      context,
    ),
    actionCommand(
      sessionList,
      {
        description:
          "list agents' sessions, and the one -s names (a tab the user shared is listed only to the agent given its id)",
        args: {},
        options: {},
        examples: ['bproxy session list --pretty', 'bproxy -s "$BPROXY_SESSION" session list'],
      },
      context,
    ),
    actionCommand(
      sessionBind,
      {
        description:
          "bind the session to one of its tabs and/or change its pacing (a tab the user shared keeps the user's)",
        args: {},
        options: { tab: 'tab handle, e.g. t2', pacing: PACING },
        examples: ['bproxy session bind -s m4q7z2 --tab t2', 'bproxy session bind -s m4q7z2 --pacing fast'],
      },
      context,
    ),
    simple(sessionUnbind, 'unbind', 'clear the tab binding (and a pause)'),
    simple(sessionResume, 'resume', 'resume a session paused for a human'),
    simple(sessionClose, 'close', 'close the session and its tabs'),
  ])
    session.addCommand(command);
  return session;
}
