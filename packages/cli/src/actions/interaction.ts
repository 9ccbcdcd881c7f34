/**
 * Acting on the page: scroll, click, hover, fill, type, press, select. Elements are handles from a
 * read (el3) or `--selector CSS`; the daemon paces these per session, the CLI never waits itself.
 */
import { usageError } from '../cli-error';
import { compact, elementTarget, isElementHandle } from '../parsers';
import { choice, defineAction, int, optional, required, text, variadic } from './grammar';

export const SELECTOR = text('--selector <css>');
const DIRECTIONS = ['up', 'down', 'left', 'right'];

export const scroll = defineAction({
  path: ['scroll'],
  args: [variadic('where')],
  options: {
    amount: int('--amount <px>', 1, 100_000),
    to: choice('--to <place>', ['top', 'bottom', 'element']),
    selector: SELECTOR,
  },
  call([where], opts) {
    let direction: string | undefined;
    let handle: string | undefined;
    for (const word of where) {
      if (DIRECTIONS.includes(word) && direction === undefined) direction = word;
      else if (isElementHandle(word) && handle === undefined) handle = word;
      else
        throw usageError(
          `scroll takes a direction (${DIRECTIONS.join(', ')}) and/or an element handle, got "${word}"`,
        );
    }
    if (direction !== undefined && opts.to !== undefined)
      throw usageError('give a direction or --to, not both');
    const target = elementTarget(handle, opts.selector, opts.to === 'element');
    return { action: 'scroll', params: compact({ direction, amount: opts.amount, to: opts.to, target }) };
  },
});

export const click = defineAction({
  path: ['click'],
  args: [optional('element')],
  options: {
    selector: SELECTOR,
    button: choice('--button <button>', ['left', 'middle', 'right']),
    count: int('--count <n>', 1, 3),
  },
  call: ([handle], opts) => ({
    action: 'click',
    params: compact({
      target: elementTarget(handle, opts.selector, true),
      button: opts.button,
      clickCount: opts.count,
    }),
  }),
});

export const hover = defineAction({
  path: ['hover'],
  args: [optional('element')],
  options: { selector: SELECTOR },
  call: ([handle], opts) => ({
    action: 'hover',
    params: { target: elementTarget(handle, opts.selector, true) },
  }),
});

export const fill = defineAction({
  path: ['fill'],
  args: [variadic('args')],
  options: { selector: SELECTOR, value: text('--value <value>') },
  call([args], opts) {
    const [handle, positional, extra] =
      opts.selector === undefined ? [args[0], args[1], args[2]] : [undefined, args[0], args[1]];
    if (extra !== undefined)
      throw usageError('fill takes one element and one value; quote values with spaces');
    if (positional !== undefined && opts.value !== undefined)
      throw usageError('give the value once: as an argument or with --value');
    const value = positional ?? opts.value;
    if (value === undefined) throw usageError('give the value to fill: `fill el2 VALUE` or --value VALUE');
    return { action: 'fill', params: { target: elementTarget(handle, opts.selector, true), value } };
  },
});

export const typeText = defineAction({
  path: ['type'],
  args: [required('text')],
  options: { into: text('--into <element>'), selector: SELECTOR },
  call: ([typed], opts) => ({
    action: 'type',
    params: compact({ text: typed, target: elementTarget(opts.into, opts.selector, false) }),
  }),
});

export const press = defineAction({
  path: ['press'],
  args: [required('key')],
  options: { into: text('--into <element>'), selector: SELECTOR },
  call: ([key], opts) => ({
    action: 'press',
    params: compact({ key, target: elementTarget(opts.into, opts.selector, false) }),
  }),
});

export const select = defineAction({
  path: ['select'],
  args: [variadic('args')],
  options: { selector: SELECTOR },
  call([args], opts) {
    const handle = opts.selector === undefined ? args[0] : undefined;
    const values = opts.selector === undefined ? args.slice(1) : args;
    const target = elementTarget(handle, opts.selector, true);
    if (values.length === 0) throw usageError('give at least one value to select');
    return { action: 'select', params: { target, values } };
  },
});
