/**
 * Fuzzing the CLI's arguments: generated argv (real command words, options and values mixed with
 * junk, in any order) run through the built `bproxy`, with no daemon and with one running. Whatever
 * the input, the exit code is one of 0/1/2/3 and stderr never shows a stack trace.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cli } from '../kit/cli';

process.env.BPROXY_BROWSER = 'none';

const WORDS = [
  'session',
  'create',
  'list',
  'bind',
  'unbind',
  'resume',
  'close',
  'tab',
  'open',
  'pin',
  'unpin',
  'navigate',
  'back',
  'forward',
  'reload',
  'text',
  'links',
  'elements',
  'inspect',
  'snapshot',
  'click',
  'hover',
  'fill',
  'type',
  'press',
  'select',
  'scroll',
  'wait',
  'screenshot',
  'dialog',
  'accept',
  'dismiss',
  'debug',
  'last',
  'status',
  'log',
  'call',
  'service',
  'help',
  'down',
  'up',
  'el1',
  'ln2',
  't1',
  'Enter',
  'http://x/',
  '{}',
  '{"url":1}',
  '[]',
  'abcdef',
  '',
  '-',
  '--',
];
const OPTIONS = [
  '-s',
  '--session',
  '--timeout',
  '--pretty',
  '--url',
  '--value',
  '--into',
  '--selector',
  '--label',
  '--pacing',
  '--tab',
  '--max-chars',
  '--offset',
  '--contains',
  '--role',
  '--amount',
  '--to',
  '--text',
  '--handle',
  '--navigation',
  '--state',
  '--timeout-ms',
  '--full-page',
  '--browser',
  '--help',
  '-h',
  '--version',
  '--nope',
  '-x',
];
const VALUES = [
  '0',
  '-1',
  '1e9',
  'NaN',
  'fast',
  'human',
  'abcdef',
  'zzzzzz',
  'el3',
  'x'.repeat(300),
  'é€🙂',
  '\u0000',
];

const token = fc.oneof(
  { arbitrary: fc.constantFrom(...WORDS), weight: 4 },
  { arbitrary: fc.constantFrom(...OPTIONS), weight: 3 },
  { arbitrary: fc.constantFrom(...VALUES), weight: 2 },
  { arbitrary: fc.string({ maxLength: 12 }).filter((s) => !s.includes('\u0000')), weight: 1 },
);
// `service start|stop` would start or stop daemons: the lifecycle has its own tests.
const argv = fc
  .array(token, { minLength: 0, maxLength: 6 })
  .map((a) => a.map((t) => t.replace(/\u0000/g, '')))
  .filter((a) => !(a.includes('service') && (a.includes('start') || a.includes('stop'))));

// Ordinary action lines (the fast path, which fails without a daemon or a session) are always tried:
// random tokens seldom make one.
const ACTION_LINES: [string[]][] = [[['back']], [['text', '--pretty']], [['tab', 'list']]];

function checkRun(run: { code: number; stderr: string }): void {
  expect([0, 1, 2, 3]).toContain(run.code);
  expect(run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
  expect(run.stderr).not.toMatch(/TypeError|ReferenceError|RangeError|SyntaxError/);
}

let cli: Cli;
beforeAll(() => {
  cli = new Cli();
});
afterAll(async () => {
  await cli?.dispose();
});

describe('fuzzing the CLI arguments', () => {
  it('exits 0/1/2/3 without a stack trace when no daemon runs', async () => {
    await fc.assert(
      fc.asyncProperty(argv, async (args) => checkRun(await cli.run(args, 20_000))),
      { numRuns: 40, examples: ACTION_LINES },
    );
  }, 120_000);

  it('exits 0/1/2/3 without a stack trace against a running daemon', async () => {
    await cli.start();
    await fc.assert(
      fc.asyncProperty(argv, async (args) => checkRun(await cli.run(args, 20_000))),
      { numRuns: 40, examples: ACTION_LINES },
    );
    expect((await cli.run(['session', 'list'])).code).toBe(0);
  }, 120_000);
});
