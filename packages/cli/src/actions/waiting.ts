/** wait and dialog: synchronizing with the page, and answering the JavaScript dialogs it opens. */
import { usageError } from '../cli-error';
import { compact, elementTarget } from '../parsers';
import { choice, defineAction, flag, int, required, text } from './grammar';

export const wait = defineAction({
  path: ['wait'],
  args: [],
  options: {
    text: text('--text <text>'),
    selector: text('--selector <css>'),
    handle: text('--handle <element>'),
    navigation: flag('--navigation'),
    state: choice('--state <state>', ['visible', 'hidden', 'attached', 'detached']),
    timeoutMs: int('--timeout-ms <ms>', 0, 300_000),
  },
  call(_args, opts) {
    const given = [opts.text, opts.selector, opts.handle, opts.navigation].filter(
      (v) => v !== undefined,
    ).length;
    if (given !== 1) throw usageError('give exactly one of --text, --selector, --handle or --navigation');
    const target = opts.handle === undefined ? undefined : elementTarget(opts.handle, undefined, true);
    const params = compact({
      text: opts.text,
      selector: opts.selector,
      target,
      navigation: opts.navigation,
      state: opts.state,
      timeoutMs: opts.timeoutMs,
    });
    return { action: 'wait', params };
  },
});

export const dialog = defineAction({
  path: ['dialog'],
  args: [required('answer', ['accept', 'dismiss'])],
  options: { text: text('--text <text>') },
  call([answer], opts) {
    if (answer === 'dismiss' && opts.text !== undefined) throw usageError('--text only goes with accept');
    return { action: 'dialog', params: compact({ accept: answer === 'accept', promptText: opts.text }) };
  },
});
