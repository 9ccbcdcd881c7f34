/**
 * Acting on the page: scroll, click, hover, fill, type, press, select. Elements are handles from a
 * read (el3) or `--selector CSS`; the daemon paces these per session, the CLI never waits itself.
 */
import { usageError } from '../cli-error';
import { compact, elementTarget, isElementHandle } from '../parsers';
import { choice, defineAction, flag, int, optional, required, text, variadic } from './grammar';

export const SELECTOR = text('--selector <css>');
export const SELECTOR_HELP = 'a CSS selector instead of a handle';
const DIFF = flag('--diff');
const DIFF_HELP = 'also answer the snapshot diff the action caused (as "diff")';
const DIRECTIONS = ['up', 'down', 'left', 'right'];

export const scroll = defineAction({
  action: 'scroll',
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
  help: () => ({
    description: 'scroll the page, or inside an element, or bring an element into view',
    args: { where: 'a direction (up, down, left, right) and/or an element handle' },
    options: {
      amount: 'how far, in CSS pixels',
      to: 'scroll to the top, the bottom, or the element',
      selector: SELECTOR_HELP,
    },
    examples: [
      'bproxy scroll -s m4q7z2 down',
      'bproxy scroll -s m4q7z2 down --amount 1200',
      'bproxy scroll -s m4q7z2 --to bottom',
      'bproxy scroll -s m4q7z2 el7 --to element',
    ],
    reference: [
      {
        usage: '`bproxy -s ID scroll [down\\|up\\|left\\|right] [--amount PX] [--to top\\|bottom]`',
        does: 'scroll',
      },
    ],
  }),
});

export const click = defineAction({
  action: 'click',
  path: ['click'],
  args: [optional('element')],
  options: {
    selector: SELECTOR,
    button: choice('--button <button>', ['left', 'middle', 'right']),
    count: int('--count <n>', 1, 3),
    diff: DIFF,
  },
  call: ([handle], opts) => ({
    action: 'click',
    params: compact({
      target: elementTarget(handle, opts.selector, true),
      button: opts.button,
      clickCount: opts.count,
      diff: opts.diff,
    }),
  }),
  help: () => ({
    description: 'click an element',
    args: { element: 'element handle, e.g. el3' },
    options: {
      selector: SELECTOR_HELP,
      button: 'mouse button',
      count: '2 for a double click, 3 for a triple click',
      diff: DIFF_HELP,
    },
    examples: [
      'bproxy click -s m4q7z2 el3',
      'bproxy click -s m4q7z2 --selector "button[type=submit]"',
      'bproxy click -s m4q7z2 el3 --count 2',
      'bproxy click -s m4q7z2 el3 --diff',
    ],
    after: `Output: {"url":…,"title":…,"navigated":false}, with "openedTabs":[{"tab":"t2","url":…}] when the page
opened a tab (bproxy -s ID session bind --tab t2 to act in it), and "input":"synthetic" when the
browser refused trusted input in this tab (the page saw script events).\n`,
    reference: [
      {
        usage: '`bproxy -s ID click el3 [--diff]` / `hover el3`',
        does: 'act on an element (or `--selector CSS`); `openedTabs` names tabs the page opened; `--diff` (click, fill, type, press, select, drag) adds the snapshot diff the action caused',
      },
    ],
  }),
});

export const hover = defineAction({
  action: 'hover',
  path: ['hover'],
  args: [optional('element')],
  options: { selector: SELECTOR },
  call: ([handle], opts) => ({
    action: 'hover',
    params: { target: elementTarget(handle, opts.selector, true) },
  }),
  help: () => ({
    description: 'move the pointer over an element',
    args: { element: 'element handle, e.g. el3' },
    options: { selector: SELECTOR_HELP },
    examples: ['bproxy hover -s m4q7z2 el5'],
  }),
});

export const fill = defineAction({
  action: 'fill',
  path: ['fill'],
  args: [variadic('args')],
  options: {
    selector: SELECTOR,
    value: text('--value <value>'),
    secret: text('--secret <name>'),
    diff: DIFF,
  },
  call([args], opts) {
    const [handle, positional, extra] =
      opts.selector === undefined ? [args[0], args[1], args[2]] : [undefined, args[0], args[1]];
    if (extra !== undefined)
      throw usageError('fill takes one element and one value; quote values with spaces');
    if (positional !== undefined && opts.value !== undefined)
      throw usageError('give the value once: as an argument or with --value');
    const value = positional ?? opts.value;
    if (opts.secret !== undefined && value !== undefined)
      throw usageError('give a value or --secret NAME, not both');
    if (value === undefined && opts.secret === undefined)
      throw usageError('give the value to fill: `fill el2 VALUE`, --value VALUE or --secret NAME');
    const target = elementTarget(handle, opts.selector, true);
    return {
      action: 'fill',
      params: compact({ target, value, secret: opts.secret, diff: opts.diff }),
    };
  },
  help: () => ({
    description: 'set the value of a field (fires input and change)',
    args: {
      args: 'element handle and value: `fill el2 VALUE` (with --selector: `fill --selector CSS VALUE`)',
    },
    options: {
      selector: SELECTOR_HELP,
      value: 'the value (instead of the positional one)',
      secret: 'a secret the user added (`bproxy secret list`): filled by the daemon, never shown',
      diff: DIFF_HELP,
    },
    examples: [
      'bproxy fill -s m4q7z2 el2 "Ada Lovelace"',
      'bproxy fill -s m4q7z2 el2 --value ""',
      'bproxy fill -s m4q7z2 --selector "#email" ada@example.com',
      'bproxy fill -s m4q7z2 el3 --secret bank',
    ],
    reference: [
      {
        usage: '`bproxy -s ID fill el2 --value V` / `type TEXT [--into el2]` / `press Enter`',
        does: 'type into fields',
      },
      {
        usage: '`bproxy -s ID fill el3 --secret NAME`',
        does: 'fill a secret the user added, only on its origin; the value never shows (SECRET_ORIGIN_MISMATCH elsewhere)',
      },
    ],
  }),
});

export const typeText = defineAction({
  action: 'type',
  path: ['type'],
  args: [required('text')],
  options: { into: text('--into <element>'), selector: SELECTOR, diff: DIFF },
  call: ([typed], opts) => ({
    action: 'type',
    params: compact({
      text: typed,
      target: elementTarget(opts.into, opts.selector, false),
      diff: opts.diff,
    }),
  }),
  help: () => ({
    description: 'type text key by key (into the focused element, or into --into)',
    args: { text: 'the text to type' },
    options: { into: 'element handle to focus first, e.g. el2', selector: SELECTOR_HELP, diff: DIFF_HELP },
    examples: ['bproxy type -s m4q7z2 "hello world"', 'bproxy type -s m4q7z2 "hello" --into el2'],
  }),
});

export const press = defineAction({
  action: 'press',
  path: ['press'],
  args: [required('key')],
  options: { into: text('--into <element>'), selector: SELECTOR, diff: DIFF },
  call: ([key], opts) => ({
    action: 'press',
    params: compact({ key, target: elementTarget(opts.into, opts.selector, false), diff: opts.diff }),
  }),
  help: () => ({
    description: 'press a key or a combination (Enter, Tab, Control+A)',
    args: { key: 'the key' },
    options: { into: 'element handle to focus first', selector: SELECTOR_HELP, diff: DIFF_HELP },
    examples: ['bproxy press -s m4q7z2 Enter', 'bproxy press -s m4q7z2 Control+A --into el2'],
  }),
});

export const select = defineAction({
  action: 'select',
  path: ['select'],
  args: [variadic('args')],
  options: { selector: SELECTOR, diff: DIFF },
  call([args], opts) {
    const handle = opts.selector === undefined ? args[0] : undefined;
    const values = opts.selector === undefined ? args.slice(1) : args;
    const target = elementTarget(handle, opts.selector, true);
    if (values.length === 0) throw usageError('give at least one value to select');
    return { action: 'select', params: compact({ target, values, diff: opts.diff }) };
  },
  help: () => ({
    description: 'choose options of a <select> by value or label',
    args: { args: 'element handle then one or more values (with --selector: only values)' },
    options: { selector: SELECTOR_HELP, diff: DIFF_HELP },
    examples: ['bproxy select -s m4q7z2 el4 fr', 'bproxy select -s m4q7z2 --selector "#size" M L'],
    reference: [{ usage: '`bproxy -s ID select el4 VALUE…`', does: 'choose options' }],
  }),
});

/** These commands, in the order the help lists them. */
export const INTERACTION = [scroll, click, hover, fill, typeText, press, select];
