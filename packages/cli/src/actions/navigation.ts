/** navigate, back, forward, reload: page loads in the session's bound tab (navigate opens one if none). */
import { compact } from '../parsers';
import { choice, defineAction, required } from './grammar';

const WAIT_UNTIL = choice('--wait-until <event>', ['load', 'domcontentloaded', 'none']);

export const navigate = defineAction({
  path: ['navigate'],
  args: [required('url')],
  options: { waitUntil: WAIT_UNTIL },
  call: ([url], opts) => ({ action: 'navigate', params: compact({ url, waitUntil: opts.waitUntil }) }),
});

const historyAction = (name: 'back' | 'forward' | 'reload') =>
  defineAction({
    path: [name],
    args: [],
    options: { waitUntil: WAIT_UNTIL },
    call: (_args, opts) => ({ action: name, params: compact({ waitUntil: opts.waitUntil }) }),
  });

export const back = historyAction('back');
export const forward = historyAction('forward');
export const reload = historyAction('reload');
