/** navigate, back, forward, reload: page loads in the session's bound tab (navigate opens one if none). */
import { compact } from '../parsers';
import { choice, defineAction, required } from './grammar';

const WAIT_UNTIL = choice('--wait-until <event>', ['load', 'domcontentloaded', 'none']);
const WAIT_UNTIL_HELP = 'when the load counts as done';

export const navigate = defineAction({
  action: 'navigate',
  path: ['navigate'],
  args: [required('url')],
  options: { waitUntil: WAIT_UNTIL },
  call: ([url], opts) => ({ action: 'navigate', params: compact({ url, waitUntil: opts.waitUntil }) }),
  help: () => ({
    description: 'load a URL in the bound tab (opens a tab when the session has none)',
    args: { url: 'the URL to load' },
    options: { waitUntil: WAIT_UNTIL_HELP },
    examples: [
      'bproxy navigate -s m4q7z2 https://example.com',
      'bproxy navigate -s m4q7z2 https://example.com --wait-until domcontentloaded',
    ],
    reference: [
      {
        usage: '`bproxy -s ID navigate URL` / `back` / `forward` / `reload`',
        does: 'navigation; `navigate` in a session with no tab opens one (`openedTab`)',
      },
    ],
  }),
});

const historyAction = (name: 'back' | 'forward' | 'reload', description: string) =>
  defineAction({
    action: name,
    path: [name],
    args: [],
    options: { waitUntil: WAIT_UNTIL },
    call: (_args, opts) => ({ action: name, params: compact({ waitUntil: opts.waitUntil }) }),
    help: () => ({
      description,
      args: {},
      options: { waitUntil: WAIT_UNTIL_HELP },
      examples: [`bproxy ${name} -s m4q7z2`],
    }),
  });

export const back = historyAction('back', 'go back in history');
export const forward = historyAction('forward', 'go forward in history');
export const reload = historyAction('reload', 'reload the page');

/** The "Navigation" commands, in the order the help lists them. */
export const NAVIGATION = [navigate, back, forward, reload];
