/**
 * Reading the page: text, links, elements, inspect, snapshot, screenshot. An optional element
 * (handle or --selector) narrows a read to that part of the page; elements, links and snapshot mint
 * the handles (el3, ln2) the acting commands take.
 */
import { compact, elementTarget } from '../parsers';
import { choice, defineAction, flag, int, optional, text } from './grammar';
import { SELECTOR } from './interaction';

const MAX_CHARS = int('--max-chars <n>', 100, 1_000_000);
const OFFSET = int('--offset <n>', 0, 100_000_000);
const LIMIT = int('--limit <n>', 1, 1000);
const CONTAINS = text('--contains <text>');

export const readText = defineAction({
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
});

export const links = defineAction({
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
});

export const elements = defineAction({
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
});

export const inspect = defineAction({
  path: ['inspect'],
  args: [optional('element')],
  options: { selector: SELECTOR },
  call: ([handle], opts) => ({
    action: 'inspect',
    params: { target: elementTarget(handle, opts.selector, true) },
  }),
});

export const snapshot = defineAction({
  path: ['snapshot'],
  args: [optional('element')],
  options: { selector: SELECTOR, maxChars: MAX_CHARS, offset: OFFSET, contains: CONTAINS },
  call: ([handle], opts) => ({
    action: 'snapshot',
    params: compact({
      target: elementTarget(handle, opts.selector, false),
      maxChars: opts.maxChars,
      offset: opts.offset,
      contains: opts.contains,
    }),
  }),
});

export const screenshot = defineAction({
  path: ['screenshot'],
  args: [optional('element')],
  options: {
    selector: SELECTOR,
    fullPage: flag('--full-page'),
    format: choice('--format <format>', ['png', 'jpeg']),
    quality: int('--quality <n>', 1, 100),
    out: text('--out <file>'),
  },
  call: ([handle], opts) => ({
    action: 'screenshot',
    params: compact({
      target: elementTarget(handle, opts.selector, false),
      fullPage: opts.fullPage,
      format: opts.format,
      quality: opts.quality,
    }),
    render: { kind: 'screenshot', out: opts.out },
  }),
});
