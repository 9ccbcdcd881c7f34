/** The `session` group: sessions are daemon-side state; none of these needs a browser. */
import { compact } from '../parsers';
import { choice, defineAction, text, type ActionGroup } from './grammar';

export const PACING = choice('--pacing <mode>', ['human', 'fast']);
export const PACING_HELP = 'pacing between actions';

export const sessionCreate = defineAction({
  action: 'session.create',
  path: ['session', 'create'],
  args: [],
  options: { label: text('--label <label>'), pacing: PACING, browser: text('--browser <name>') },
  call: (_args, opts) => ({
    action: 'session.create',
    params: compact({ label: opts.label, pacing: opts.pacing, browser: opts.browser }),
  }),
  help: () => ({
    description: 'create a session and print its id',
    args: {},
    options: {
      label: 'a name for people (1-64 characters)',
      pacing: PACING_HELP,
      browser: 'open its tabs in this browser (`bproxy debug status` lists them)',
    },
    examples: [
      'bproxy session create',
      'bproxy session create --label shopping --pacing fast',
      'bproxy session create --browser chrome',
    ],
    reference: [
      {
        usage: '`bproxy session create [--label L] [--pacing human\\|fast] [--browser NAME]`',
        does: 'a new session id (`--browser`: where its tabs open)',
      },
    ],
  }),
});

export const sessionList = defineAction({
  action: 'session.list',
  path: ['session', 'list'],
  args: [],
  options: {},
  call: () => ({ action: 'session.list', params: {} }),
  help: () => ({
    description:
      "list agents' sessions, and the one -s names (a tab the user shared is listed only to the agent given its id)",
    args: {},
    options: {},
    examples: ['bproxy session list --pretty', 'bproxy -s "$BPROXY_SESSION" session list'],
    reference: [
      {
        usage: '`bproxy [-s ID] session list`',
        does: "agents' sessions and their state; a tab the user shared only to the agent naming it with `-s`",
      },
    ],
  }),
});

export const sessionBind = defineAction({
  action: 'session.bind',
  path: ['session', 'bind'],
  args: [],
  options: { tab: text('--tab <tab>'), pacing: PACING },
  call: (_args, opts) => ({
    action: 'session.bind',
    params: compact({ tab: opts.tab, pacing: opts.pacing }),
  }),
  help: () => ({
    description:
      "bind the session to one of its tabs and/or change its pacing (a tab the user shared keeps the user's)",
    args: {},
    options: { tab: 'tab handle, e.g. t2', pacing: PACING_HELP },
    examples: ['bproxy session bind -s m4q7z2 --tab t2', 'bproxy session bind -s m4q7z2 --pacing fast'],
    reference: [
      {
        usage: '`bproxy -s ID session bind --tab tN [--pacing fast]`',
        does: 'bind the session to one of its tabs / change pacing (not on a tab the user shared: its pacing is theirs)',
      },
    ],
  }),
});

const sessionAction = (name: 'unbind' | 'resume' | 'close', description: string) =>
  defineAction({
    action: `session.${name}`,
    path: ['session', name],
    args: [],
    options: {},
    call: () => ({ action: `session.${name}`, params: {} }),
    help: () => ({ description, args: {}, options: {}, examples: [`bproxy session ${name} -s m4q7z2`] }),
  });

export const sessionUnbind = sessionAction('unbind', 'clear the tab binding (and a pause)');
export const sessionResume = sessionAction('resume', 'resume a session paused for a human');
export const sessionClose = sessionAction('close', 'close the session and its tabs');

export const SESSION: ActionGroup = {
  name: 'session',
  commands: [sessionCreate, sessionList, sessionBind, sessionUnbind, sessionResume, sessionClose],
  help: () => ({
    description: 'create, bind and close sessions',
    examples: [
      'bproxy session create --label research',
      'bproxy session list',
      'bproxy session bind -s m4q7z2 --tab t2',
    ],
    reference: [
      {
        usage: '`bproxy -s ID session unbind\\|resume\\|close`',
        does: 'unbind, resume after a human step, close with all tabs (`closedTabs`; `forgottenTabs` when their browser is away)',
      },
    ],
  }),
};
