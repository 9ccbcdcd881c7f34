/**
 * `session …` and `tab …`: sessions are daemon-side state; tabs are addressed by session-scoped
 * handles (t1, t2), raw browser ids never show.
 */
import { usageError } from '../cli-error';
import { compact } from '../parsers';
import { choice, defineAction, flag, optional, text } from './grammar';

const PACING = choice('--pacing <mode>', ['human', 'fast']);

export const sessionCreate = defineAction({
  path: ['session', 'create'],
  args: [],
  options: { label: text('--label <label>'), pacing: PACING, browser: text('--browser <name>') },
  call: (_args, opts) => ({
    action: 'session.create',
    params: compact({ label: opts.label, pacing: opts.pacing, browser: opts.browser }),
  }),
});

export const sessionList = defineAction({
  path: ['session', 'list'],
  args: [],
  options: {},
  call: () => ({ action: 'session.list', params: {} }),
});

export const sessionBind = defineAction({
  path: ['session', 'bind'],
  args: [],
  options: { tab: text('--tab <tab>'), pacing: PACING },
  call: (_args, opts) => ({
    action: 'session.bind',
    params: compact({ tab: opts.tab, pacing: opts.pacing }),
  }),
});

const sessionAction = (name: 'unbind' | 'resume' | 'close') =>
  defineAction({
    path: ['session', name],
    args: [],
    options: {},
    call: () => ({ action: `session.${name}`, params: {} }),
  });

export const sessionUnbind = sessionAction('unbind');
export const sessionResume = sessionAction('resume');
export const sessionClose = sessionAction('close');

export const tabOpen = defineAction({
  path: ['tab', 'open'],
  args: [optional('url')],
  options: { url: text('--url <url>'), browser: text('--browser <name>'), background: flag('--background') },
  call([url], opts) {
    if (url !== undefined && opts.url !== undefined)
      throw usageError('give the URL once: as an argument or with --url');
    const params = compact({
      url: url ?? opts.url,
      browser: opts.browser,
      active: opts.background ? false : undefined,
    });
    return { action: 'tab.open', params };
  },
});

export const tabList = defineAction({
  path: ['tab', 'list'],
  args: [],
  options: {},
  call: () => ({ action: 'tab.list', params: {} }),
});

const tabAction = (name: 'close' | 'pin' | 'unpin') =>
  defineAction({
    path: ['tab', name],
    args: [optional('tab')],
    options: {},
    call: ([handle]) => ({ action: `tab.${name}`, params: compact({ tab: handle }) }),
  });

export const tabClose = tabAction('close');
export const tabPin = tabAction('pin');
export const tabUnpin = tabAction('unpin');
