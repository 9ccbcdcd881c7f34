/** console and network: what the tab logged and fetched, one line each; one request's headers and body; HAR. */
import { usageError } from '../cli-error';
import { compact } from '../parsers';
import { choice, defineAction, flag, int, optional, text } from './grammar';

const LEVELS = ['error', 'warning', 'info', 'log', 'debug'] as const;
const OFFSET_HELP = 'start at this entry (the nextOffset of the previous answer)';
const MAX_CHARS_HELP = 'cap the answer at this many characters (100-1000000, default 4000)';
const SINCE_HELP = "only what came after the start of the tab's latest action";

export const consoleCommand = defineAction({
  action: 'console',
  path: ['console'],
  args: [],
  options: {
    level: choice('--level <level>', LEVELS),
    contains: text('--contains <text>'),
    offset: int('--offset <n>', 0, 100_000_000),
    maxChars: int('--max-chars <n>', 100, 1_000_000),
    sinceAction: flag('--since-action'),
  },
  call: (_args, opts) => ({
    action: 'console',
    params: compact({
      level: opts.level,
      contains: opts.contains,
      offset: opts.offset,
      maxChars: opts.maxChars,
      sinceAction: opts.sinceAction,
    }),
  }),
  help: () => ({
    description: "the tab's console messages and uncaught errors since it opened, with where they come from",
    args: {},
    options: {
      level: 'this level and the more severe ones (error, warning, info, log, debug)',
      contains: 'only lines containing this text',
      offset: OFFSET_HELP,
      maxChars: MAX_CHARS_HELP,
      sinceAction: SINCE_HELP,
    },
    examples: [
      'bproxy console -s m4q7z2 --level error',
      'bproxy console -s m4q7z2 --since-action --contains cart',
    ],
    reference: [
      {
        usage: '`bproxy -s ID console [--level error] [--contains S] [--since-action] [--offset N]`',
        does: 'console messages and uncaught errors',
      },
    ],
  }),
});

export const networkCommand = defineAction({
  action: 'network',
  alsoSends: ['network.get', 'network.har'],
  path: ['network'],
  args: [optional('what'), optional('arg')],
  options: {
    status: text('--status <status>'),
    type: text('--type <type>'),
    contains: text('--contains <text>'),
    offset: int('--offset <n>', 0, 100_000_000),
    maxChars: int('--max-chars <n>', 100, 1_000_000),
    sinceAction: flag('--since-action'),
    body: flag('--body'),
  },
  call([what, arg], opts) {
    const listOnly = [opts.status, opts.type, opts.contains, opts.offset, opts.maxChars, opts.sinceAction];
    if (what === undefined) {
      if (opts.body !== undefined) throw usageError('--body goes with `network get REQ`');
      return {
        action: 'network',
        params: compact({
          status: opts.status,
          type: opts.type,
          contains: opts.contains,
          offset: opts.offset,
          maxChars: opts.maxChars,
          sinceAction: opts.sinceAction,
        }),
      };
    }
    if (listOnly.some((v) => v !== undefined))
      throw usageError(
        '--status, --type, --contains, --offset, --max-chars and --since-action go with `network` alone',
      );
    if (what === 'get') {
      if (arg === undefined)
        throw usageError('network get: name the request, e.g. r3 (see `bproxy network`)');
      return { action: 'network.get', params: compact({ request: arg, body: opts.body }) };
    }
    if (what === 'har') {
      if (arg === undefined)
        throw usageError("network har: name the file, e.g. page.har (written in the session's folder)");
      if (opts.body !== undefined) throw usageError('--body goes with `network get REQ`');
      return { action: 'network.har', params: { file: arg } };
    }
    throw usageError(`network: expected get or har, got "${what}"`);
  },
  help: () => ({
    description:
      "the tab's requests, one line each (id, method, status, type, URL, size, time, initiator); `get REQ` for one request's headers (secrets redacted) and, with --body, its body; `har FILE` to export them",
    args: { what: 'get or har (nothing: the list)', arg: 'get: the request id (r3); har: the file name' },
    options: {
      status: '4xx, 5xx, an exact status like 422, or failed',
      type: 'xhr, fetch, document, script, stylesheet, image, font, …',
      contains: 'only lines containing this text (a part of the URL)',
      offset: OFFSET_HELP,
      maxChars: MAX_CHARS_HELP,
      sinceAction: SINCE_HELP,
      body: "get: also the body (inline when short, else a file in the session's folder)",
    },
    examples: [
      'bproxy network -s m4q7z2 --status 4xx',
      'bproxy network -s m4q7z2 --type fetch --contains /api/',
      'bproxy network get -s m4q7z2 r3 --body',
      'bproxy network har -s m4q7z2 checkout.har',
    ],
    reference: [
      {
        usage: '`bproxy -s ID network [--status 4xx] [--type fetch] [--contains S] [--offset N]`',
        does: 'requests, one line each',
      },
      { usage: '`bproxy -s ID network get REQ [--body]`', does: "one request's headers (redacted) and body" },
      { usage: '`bproxy -s ID network har FILE`', does: "HAR export into the session's folder" },
    ],
  }),
});

/** These commands, in the order the help lists them. */
export const OBSERVE = [consoleCommand, networkCommand];
