/**
 * Reading the page: text, links, elements, inspect, snapshot, screenshot. An optional element
 * (handle or --selector) narrows a read to that part of the page; elements, links and snapshot mint
 * the handles (el3, ln2) the acting commands take.
 */
import { compact, elementTarget } from '../parsers';
import { choice, defineAction, flag, int, optional, text } from './grammar';
import { SELECTOR, SELECTOR_HELP } from './interaction';

const MAX_CHARS = int('--max-chars <n>', 100, 1_000_000);
const OFFSET = int('--offset <n>', 0, 100_000_000);
const LIMIT = int('--limit <n>', 1, 1000);
const CONTAINS = text('--contains <text>');
const MAX_CHARS_HELP = 'characters per page of output (100-1000000)';
const OFFSET_HELP = 'start at this character (from nextOffset)';
const LIMIT_HELP = 'at most this many entries (1-1000)';
const CONTAINS_HELP = 'only entries containing this text';

export const readText = defineAction({
  action: 'text',
  path: ['text'],
  args: [optional('element')],
  options: { selector: SELECTOR, maxChars: MAX_CHARS, offset: OFFSET },
  call: ([handle], opts) => ({
    action: 'text',
    params: compact({
      target: elementTarget(handle, opts.selector, false),
      maxChars: opts.maxChars,
      offset: opts.offset,
    }),
  }),
  help: () => ({
    description: 'read the visible text of the page (or of one element)',
    args: { element: 'element handle to read from, e.g. el3' },
    options: { selector: SELECTOR_HELP, maxChars: MAX_CHARS_HELP, offset: OFFSET_HELP },
    examples: [
      'bproxy text -s m4q7z2',
      'bproxy text -s m4q7z2 --max-chars 2000 --offset 2000',
      'bproxy text -s m4q7z2 --selector main --pretty',
    ],
    reference: [{ usage: '`bproxy -s ID text [--max-chars N] [--offset N]`', does: 'visible text' }],
  }),
});

export const links = defineAction({
  action: 'links',
  path: ['links'],
  args: [optional('element')],
  options: { selector: SELECTOR, contains: CONTAINS, limit: LIMIT },
  call: ([handle], opts) => ({
    action: 'links',
    params: compact({
      target: elementTarget(handle, opts.selector, false),
      contains: opts.contains,
      limit: opts.limit,
    }),
  }),
  help: () => ({
    description: 'list the links of the page (mints ln handles)',
    args: { element: 'only links inside this element' },
    options: { selector: SELECTOR_HELP, contains: CONTAINS_HELP, limit: LIMIT_HELP },
    examples: ['bproxy links -s m4q7z2', 'bproxy links -s m4q7z2 --contains pricing --limit 20'],
    reference: [
      {
        usage: '`bproxy -s ID links` / `elements [--contains S] [--role R]`',
        does: 'list links (`ln` handles) / actionable elements (`el` handles)',
      },
    ],
  }),
});

export const elements = defineAction({
  action: 'elements',
  path: ['elements'],
  args: [optional('element')],
  options: { selector: SELECTOR, contains: CONTAINS, role: text('--role <role>'), limit: LIMIT },
  call: ([handle], opts) => ({
    action: 'elements',
    params: compact({
      target: elementTarget(handle, opts.selector, false),
      contains: opts.contains,
      role: opts.role,
      limit: opts.limit,
    }),
  }),
  help: () => ({
    description: 'list what can be acted on (mints el handles)',
    args: { element: 'only elements inside this element' },
    options: {
      selector: SELECTOR_HELP,
      contains: CONTAINS_HELP,
      role: 'only elements with this role (button, textbox, link, …)',
      limit: LIMIT_HELP,
    },
    examples: ['bproxy elements -s m4q7z2', 'bproxy elements -s m4q7z2 --role button --contains "Sign in"'],
  }),
});

export const inspect = defineAction({
  action: 'inspect',
  path: ['inspect'],
  args: [optional('element')],
  options: { selector: SELECTOR },
  call: ([handle], opts) => ({
    action: 'inspect',
    params: { target: elementTarget(handle, opts.selector, true) },
  }),
  help: () => ({
    description: 'describe one element: role, name, attributes, box, state',
    args: { element: 'element handle, e.g. el3' },
    options: { selector: SELECTOR_HELP },
    examples: [
      'bproxy inspect -s m4q7z2 el3',
      'bproxy inspect -s m4q7z2 --selector "form button[type=submit]"',
    ],
    reference: [{ usage: '`bproxy -s ID inspect el3`', does: 'one element in detail' }],
  }),
});

export const snapshot = defineAction({
  action: 'snapshot',
  path: ['snapshot'],
  args: [optional('element')],
  options: {
    selector: SELECTOR,
    maxChars: MAX_CHARS,
    offset: OFFSET,
    contains: CONTAINS,
    diff: flag('--diff'),
  },
  call: ([handle], opts) => ({
    action: 'snapshot',
    params: compact({
      target: elementTarget(handle, opts.selector, false),
      maxChars: opts.maxChars,
      offset: opts.offset,
      contains: opts.contains,
      diff: opts.diff,
    }),
  }),
  help: () => ({
    description:
      'a compact outline of the page for language models (mints handles); long text is left out unless --contains or an element is given',
    args: { element: 'only this part of the page' },
    options: {
      selector: SELECTOR_HELP,
      maxChars: MAX_CHARS_HELP,
      offset: OFFSET_HELP,
      contains: CONTAINS_HELP,
      diff: 'only what changed since your last snapshot of this tab and scope (+ added, - removed, ~ changed; new text whatever its length); the first one, and the first after a navigation, is whole ("diff" says which)',
    },
    examples: [
      'bproxy snapshot -s m4q7z2 --pretty',
      'bproxy snapshot -s m4q7z2 --contains checkout',
      'bproxy snapshot -s m4q7z2 --diff --pretty',
    ],
    reference: [
      {
        usage: '`bproxy -s ID snapshot [--max-chars N] [--offset N] [--contains S] [--diff]`',
        does: 'compact outline for language models, with handles; `--diff`: only what changed',
      },
    ],
  }),
});

export const screenshot = defineAction({
  action: 'screenshot',
  path: ['screenshot'],
  args: [optional('element')],
  options: {
    selector: SELECTOR,
    fullPage: flag('--full-page'),
    format: choice('--format <format>', ['png', 'jpeg']),
    quality: int('--quality <n>', 1, 100),
    maxWidth: int('--max-width <px>', 100, 10_000),
    annotate: flag('--annotate'),
    out: text('--out <file>'),
  },
  call: ([handle], opts) => ({
    action: 'screenshot',
    params: compact({
      target: elementTarget(handle, opts.selector, false),
      fullPage: opts.fullPage,
      format: opts.format,
      quality: opts.quality,
      maxWidth: opts.maxWidth,
      annotate: opts.annotate,
    }),
    render: { kind: 'screenshot', out: opts.out },
  }),
  help: () => ({
    description: 'capture the page (or one element) to an image file and print its path',
    args: { element: 'only this element' },
    options: {
      selector: SELECTOR_HELP,
      fullPage: 'the whole page, not just the viewport',
      format: 'image format',
      quality: 'JPEG quality (1-100)',
      maxWidth: 'scale the image down to at most this many pixels wide',
      annotate:
        'outline every actionable element in view and label it with its handle (the snapshot\'s); "annotations" lists them with their boxes in image pixels',
      out: 'where to write the image (default: $BPROXY_HOME/screenshots/screenshot-<time>.<ext>, a private folder)',
    },
    examples: [
      'bproxy screenshot -s m4q7z2',
      'bproxy screenshot -s m4q7z2 --full-page --out page.png',
      'bproxy screenshot -s m4q7z2 --annotate --max-width 1280',
      'bproxy screenshot -s m4q7z2 el3',
    ],
    reference: [
      {
        usage: '`bproxy -s ID screenshot [el3] [--full-page] [--annotate] [--max-width PX] [--out FILE]`',
        does: 'capture the page (or one element); `--annotate` labels what can be acted on with its handle',
      },
    ],
  }),
});

/** The "Reading the page" commands, in the order the help lists them. */
export const READS = [readText, links, elements, inspect, snapshot, screenshot];
