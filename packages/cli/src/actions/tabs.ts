/** The `tab` group: tabs are addressed by session-scoped handles (t1, t2), raw browser ids never show. */
import { usageError } from '../cli-error';
import { compact } from '../parsers';
import { defineAction, flag, optional, text, type ActionGroup } from './grammar';

export const tabOpen = defineAction({
  action: 'tab.open',
  path: ['tab', 'open'],
  args: [optional('url')],
  options: {
    url: text('--url <url>'),
    browser: text('--browser <name>'),
    background: flag('--background'),
    foreground: flag('--foreground'),
  },
  call([url], opts) {
    if (url !== undefined && opts.url !== undefined)
      throw usageError('give the URL once: as an argument or with --url');
    if (opts.background && opts.foreground) throw usageError('give --background or --foreground, not both');
    const params = compact({
      url: url ?? opts.url,
      browser: opts.browser,
      active: opts.background ? false : opts.foreground ? true : undefined,
    });
    return { action: 'tab.open', params };
  },
  help: () => ({
    description: 'open a tab (creates and binds a session when -s is not given)',
    args: { url: 'the URL to load (same as --url)' },
    options: {
      url: 'the URL to load',
      browser: 'which connected browser opens it (see `bproxy debug status`)',
      background:
        "open it behind the tab you look at (the default in your own Chrome: in the session's folded group)",
      foreground: 'bring the tab to the front (the site policy may forbid it: POLICY_DENIED)',
    },
    examples: [
      'bproxy tab open --url https://example.com',
      'bproxy tab open -s m4q7z2 https://example.com --browser headless',
    ],
    reference: [
      {
        usage: '`bproxy [-s ID] tab open --url URL [--browser NAME] [--foreground]`',
        does: 'open a tab (without `-s`: creates and binds a session); in your own Chrome it opens behind yours unless --foreground (which the policy may forbid)',
      },
    ],
  }),
});

export const tabList = defineAction({
  action: 'tab.list',
  path: ['tab', 'list'],
  args: [],
  options: {},
  call: () => ({ action: 'tab.list', params: {} }),
  help: () => ({
    description: "list the session's tabs",
    args: {},
    options: {},
    examples: ['bproxy tab list -s m4q7z2'],
    reference: [{ usage: '`bproxy -s ID tab list\\|close\\|pin\\|unpin [tN]`', does: "the session's tabs" }],
  }),
});

const tabAction = (name: 'close' | 'pin' | 'unpin', description: string) =>
  defineAction({
    action: `tab.${name}`,
    path: ['tab', name],
    args: [optional('tab')],
    options: {},
    call: ([handle]) => ({ action: `tab.${name}`, params: compact({ tab: handle }) }),
    help: () => ({
      description,
      args: { tab: 'tab handle, e.g. t2' },
      options: {},
      examples: [`bproxy tab ${name} -s m4q7z2`, `bproxy tab ${name} -s m4q7z2 t2`],
    }),
  });

export const tabClose = tabAction('close', 'close a tab of the session (default: the bound one)');
export const tabPin = tabAction('pin', 'pin a tab in the browser (default: the bound one)');
export const tabUnpin = tabAction('unpin', 'unpin a tab (default: the bound one)');

export const TAB: ActionGroup = {
  name: 'tab',
  commands: [tabOpen, tabList, tabClose, tabPin, tabUnpin],
  help: () => ({
    description: 'open, list, pin and close tabs',
    examples: [
      'bproxy tab open --url https://example.com',
      'bproxy tab list -s m4q7z2',
      'bproxy tab close -s m4q7z2 t2',
    ],
  }),
};
