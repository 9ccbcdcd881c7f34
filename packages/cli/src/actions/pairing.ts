/** `pair`: a fresh one-time pairing code for the extension's popup, issued by the running daemon. */
import { defineAction } from './grammar';

export const pair = defineAction({
  path: ['pair'],
  args: [],
  options: {},
  call: () => ({ action: 'pairing.issue', params: {} }),
});
