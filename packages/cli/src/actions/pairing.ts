/** `pair`: a fresh one-time pairing code for the extension's popup, issued by the running daemon. */
import { defineAction } from './grammar';

export const pair = defineAction({
  action: 'pairing.issue',
  path: ['pair'],
  args: [],
  options: {},
  call: () => ({ action: 'pairing.issue', params: {} }),
  help: () => ({
    description: 'a fresh one-time pairing code for the extension popup (retires the previous code)',
    args: {},
    options: {},
    examples: ['bproxy pair', 'bproxy pair --pretty'],
    after:
      '\nThe code lasts 5 minutes and pairs once; type it into the bproxy popup with the port printed here.\n',
    reference: [
      {
        usage: '`bproxy pair`',
        does: 'a fresh one-time pairing code for the extension\'s popup (`{"code":"ABCD-EFGH","expiresAt":…,"port":…}`); the previous code stops working',
      },
    ],
  }),
});
