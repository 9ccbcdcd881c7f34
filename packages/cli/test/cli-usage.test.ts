import { ACTION_NAMES, BPROXY_VERSION } from '@bproxy/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './helpers/cli-harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.cleanup();
});

/** The command line that sends each protocol action: every action has one. */
const COMMAND_OF: Record<(typeof ACTION_NAMES)[number], string[]> = {
  'session.create': ['session', 'create'],
  'session.list': ['session', 'list'],
  'session.bind': ['session', 'bind'],
  'session.unbind': ['session', 'unbind'],
  'session.resume': ['session', 'resume'],
  'session.close': ['session', 'close'],
  batch: ['batch'],
  'tab.open': ['tab', 'open'],
  'tab.close': ['tab', 'close'],
  'tab.list': ['tab', 'list'],
  'tab.pin': ['tab', 'pin'],
  'tab.unpin': ['tab', 'unpin'],
  navigate: ['navigate'],
  back: ['back'],
  forward: ['forward'],
  reload: ['reload'],
  text: ['text'],
  links: ['links'],
  elements: ['elements'],
  inspect: ['inspect'],
  snapshot: ['snapshot'],
  screenshot: ['screenshot'],
  scroll: ['scroll'],
  click: ['click'],
  hover: ['hover'],
  drag: ['drag'],
  fill: ['fill'],
  type: ['type'],
  press: ['press'],
  select: ['select'],
  wait: ['wait'],
  dialog: ['dialog'],
  upload: ['upload'],
  drop: ['drag'],
  pdf: ['pdf'],
  downloads: ['downloads'],
  'state.save': ['state', 'save'],
  'state.load': ['state', 'load'],
  'cookies.list': ['cookies', 'list'],
  'cookies.set': ['cookies', 'set'],
  'cookies.clear': ['cookies', 'clear'],
  emulate: ['emulate'],
  console: ['console'],
  network: ['network'],
  'network.get': ['network', 'get'],
  'network.har': ['network', 'har'],
  'pairing.issue': ['pair'],
  'debug.last': ['debug', 'last'],
  'debug.status': ['debug', 'status'],
  'debug.log': ['debug', 'log'],
};

describe('bproxy help and version', () => {
  it('prints the version', async () => {
    expect(await h.run(['--version'])).toMatchObject({ code: 0, stdout: `${BPROXY_VERSION}\n` });
  });

  it('lists the commands in groups at the top level', async () => {
    const help = await h.run(['--help']);
    expect(help.code).toBe(0);
    for (const heading of [
      'Daemon:',
      'Sessions and tabs:',
      'Navigation:',
      'Reading the page',
      'Acting on the page:',
      'Debugging:',
    ]) {
      expect(help.stdout).toContain(heading);
    }
    expect(help.stdout).toContain(
      'Exit codes: 0 ok, 1 the action failed (error on stderr), 2 usage error, 3 no daemon running.',
    );
  });

  it('has a command with examples for every protocol action', async () => {
    expect(Object.keys(COMMAND_OF).sort()).toEqual([...ACTION_NAMES].sort());
    const paths = [
      ...Object.values(COMMAND_OF),
      ['service', 'start'],
      ['service', 'stop'],
      ['service', 'status'],
      ['call'],
    ];
    // A few at a time: a hundred CLIs started at once on two busy cores would each run into the timeout.
    const queue = [...paths];
    const worker = async (): Promise<void> => {
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
        const help = await h.run([...path, '--help']);
        const name = path.join(' ');
        expect(help.code, name).toBe(0);
        expect(help.stdout, name).toContain('Examples:\n  $ bproxy ');
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
  }, 180_000);
});

describe('bproxy usage errors exit 2 and name the problem', () => {
  const cases: [string, string[], string][] = [
    ['an unknown command', ['bogus'], "unknown command 'bogus'"],
    ['an unknown option', ['text', '--bogus'], "unknown option '--bogus'"],
    ['a number with a unit', ['text', '--max-chars', '12px'], '--max-chars must be an integer, got "12px"'],
    ['a number out of range', ['elements', '--limit', '0'], '--limit must be between 1 and 1000, got 0'],
    ['a fractional number', ['scroll', 'down', '--amount', '2.5'], '--amount must be an integer, got "2.5"'],
    [
      'a global --timeout that is not a number',
      ['--timeout', 'soon', 'debug', 'status'],
      '--timeout must be an integer',
    ],
    ['a missing element', ['click'], 'give an element handle (el3, ln2) or --selector CSS'],
    [
      'a handle and a selector',
      ['click', 'el3', '--selector', 'a'],
      'give an element handle or --selector, not both',
    ],
    [
      'something that is not a handle',
      ['click', '#submit'],
      'expected an element handle like el3 or ln2, got "#submit"',
    ],
    ['a bad choice', ['session', 'create', '--pacing', 'slow'], 'Allowed choices are human, fast'],
    [
      'wait without a condition',
      ['wait'],
      'give exactly one of --text, --text-gone, --selector, --handle, --navigation, --url, --load, --console-error, --network-idle or --download',
    ],
    ['fill without a value', ['fill', 'el2'], 'give the value to fill'],
    ['an unknown action in call', ['call', 'teleport'], 'unknown action "teleport"'],
    ['call params that are not JSON', ['call', 'debug.last', '{limit:5}'], 'params must be a JSON object'],
    ['call params rejected by the schema', ['call', 'debug.last', '{"limit":"5"}'], 'params.limit'],
    [
      'params with an unknown field',
      ['call', 'session.list', '{"all":true}'],
      'params: unknown field(s) "all"',
    ],
    ['session bind with nothing to do', ['session', 'bind'], 'give a tab, a pacing mode, or both'],
    ['an unknown tool group for mcp', ['mcp', '--caps', 'debug,gizmos'], '--caps: unknown group "gizmos"'],
    [
      'a batch file that is not there',
      ['batch', '/nonexistent/steps.json'],
      'cannot read /nonexistent/steps.json',
    ],
  ];

  it.each(cases)('%s', async (_what, args, message) => {
    const home = h.home();
    const run = await h.run(args, { home });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const error = JSON.parse(run.stderr) as { ok: boolean; error: { code: string; message: string } };
    expect(error.ok).toBe(false);
    expect(error.error.code).toBe('USAGE');
    expect(error.error.message).toContain(message);
  });

  it('with --pretty prints CODE: message for people', async () => {
    const run = await h.run(['--pretty', 'click']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('USAGE: give an element handle (el3, ln2) or --selector CSS\n');
  });
});

describe('bproxy without a daemon', () => {
  it('exits 3 and says to run `bproxy service start`', async () => {
    const home = h.home();
    const run = await h.run(['session', 'list'], { home });
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('');
    expect(JSON.parse(run.stderr)).toEqual({
      ok: false,
      error: {
        code: 'NO_DAEMON',
        message: `no bproxy daemon is running for ${home} (no bproxy.pid)`,
        hint: 'Run `bproxy service start`',
      },
    });
  });

  it('exits 3 when BPROXY_HOME does not exist, with --pretty for people', async () => {
    const run = await h.run(['--pretty', 'debug', 'status'], { home: '/nonexistent/bproxy-home' });
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      'NO_DAEMON: no bproxy daemon is running for /nonexistent/bproxy-home (the state directory does not exist)\nhint: Run `bproxy service start`\n',
    );
  });
});
