/** wait and dialog: synchronizing with the page, and answering the JavaScript dialogs it opens. */
import { NETWORK_IDLE_MS } from '@bproxy/protocol/plain';
import { usageError } from '../cli-error';
import { compact, elementTarget } from '../parsers';
import { choice, defineAction, flag, int, required, text } from './grammar';

export const wait = defineAction({
  action: 'wait',
  path: ['wait'],
  args: [],
  options: {
    text: text('--text <text>'),
    textGone: text('--text-gone <text>'),
    selector: text('--selector <css>'),
    handle: text('--handle <element>'),
    navigation: flag('--navigation'),
    url: text('--url <pattern>'),
    load: flag('--load'),
    consoleError: flag('--console-error'),
    networkIdle: flag('--network-idle'),
    download: flag('--download'),
    state: choice('--state <state>', ['visible', 'hidden', 'attached', 'detached']),
    timeoutMs: int('--timeout-ms <ms>', 0, 300_000),
  },
  call(_args, opts) {
    const given = [
      opts.text,
      opts.textGone,
      opts.selector,
      opts.handle,
      opts.navigation,
      opts.url,
      opts.load,
      opts.consoleError,
      opts.networkIdle,
      opts.download,
    ].filter((v) => v !== undefined).length;
    if (given !== 1)
      throw usageError(
        'give exactly one of --text, --text-gone, --selector, --handle, --navigation, --url, --load, --console-error, --network-idle or --download',
      );
    const target = opts.handle === undefined ? undefined : elementTarget(opts.handle, undefined, true);
    const params = compact({
      text: opts.text,
      textGone: opts.textGone,
      selector: opts.selector,
      target,
      navigation: opts.navigation,
      url: opts.url,
      load: opts.load,
      consoleError: opts.consoleError,
      networkIdle: opts.networkIdle,
      download: opts.download,
      state: opts.state,
      timeoutMs: opts.timeoutMs,
    });
    return { action: 'wait', params };
  },
  help: () => ({
    description:
      'wait for text (or its going), an element, a URL, the load, a navigation, or a quiet network',
    args: {},
    options: {
      text: 'until this text is on the page',
      textGone: 'until this text is no longer on the page',
      url: 'until the page URL contains PATTERN (with *: matches it whole) and the page has loaded',
      load: 'until the page has loaded (its load event)',
      selector: 'until an element matches this selector',
      handle: 'until this element reaches --state',
      navigation: 'until the tab navigates',
      consoleError: 'until the tab logs an error or throws uncaught (since its latest action)',
      networkIdle: `until the tab has had no request in flight for ${NETWORK_IDLE_MS} ms`,
      download: "until one of the session's downloads ends (see `downloads`)",
      state: 'for --selector/--handle',
      timeoutMs: 'give up after this long (0-300000)',
    },
    examples: [
      'bproxy wait -s m4q7z2 --text "Order confirmed"',
      'bproxy wait -s m4q7z2 --selector .results --state visible',
      'bproxy wait -s m4q7z2 --navigation --timeout-ms 10000',
      'bproxy wait -s m4q7z2 --url "*/checkout/done*"',
      'bproxy wait -s m4q7z2 --text-gone "Loading…"',
      'bproxy wait -s m4q7z2 --load',
      'bproxy wait -s m4q7z2 --console-error --timeout-ms 5000',
      'bproxy wait -s m4q7z2 --network-idle --timeout-ms 10000',
      'bproxy wait -s m4q7z2 --download',
    ],
    reference: [
      {
        usage:
          '`bproxy -s ID wait --text T \\| --text-gone T \\| --selector S \\| --handle el3 \\| --navigation \\| --url PATTERN \\| --load \\| --console-error \\| --network-idle \\| --download [--timeout-ms MS]`',
        does: 'wait for a condition; `WAIT_TIMEOUT` says what was awaited and where the page is',
      },
    ],
  }),
});

export const dialog = defineAction({
  action: 'dialog',
  path: ['dialog'],
  args: [required('answer', ['accept', 'dismiss'])],
  options: { text: text('--text <text>') },
  call([answer], opts) {
    if (answer === 'dismiss' && opts.text !== undefined) throw usageError('--text only goes with accept');
    return { action: 'dialog', params: compact({ accept: answer === 'accept', promptText: opts.text }) };
  },
  help: () => ({
    description: 'accept or dismiss the open JavaScript dialog',
    args: { answer: 'accept or dismiss' },
    options: { text: 'text to enter in a prompt() before accepting' },
    examples: [
      'bproxy dialog -s m4q7z2 accept',
      'bproxy dialog -s m4q7z2 accept --text "my answer"',
      'bproxy dialog -s m4q7z2 dismiss',
    ],
    reference: [
      { usage: '`bproxy -s ID dialog accept\\|dismiss [--text T]`', does: 'answer a JavaScript dialog' },
    ],
  }),
});

/** These commands, in the order the help lists them (after the interaction commands). */
export const WAITING = [wait, dialog];
