/**
 * What each command line sends: the CLI runs against a stand-in daemon (helpers/fake-daemon.mjs)
 * that echoes the request back inside an error envelope, so params, session, deadline and headers
 * are checked for every command without a browser.
 */
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './helpers/cli-harness';
import { startFakeDaemon, type FakeDaemon } from './helpers/fake-daemon-process';

let h: Harness;
let home: string;
let fake: FakeDaemon;

beforeAll(async () => {
  h = await createHarness();
  home = h.home();
  fake = await startFakeDaemon(home);
}, 60_000);
afterAll(async () => {
  await fake.stop();
  await h.cleanup();
});

interface Echo {
  request: {
    id: string;
    action: string;
    session?: string;
    params: Record<string, unknown>;
    deadline: number;
  };
  authorized: boolean;
  host: string;
  contentType: string;
}

async function sent(args: string[], env: Record<string, string> = {}): Promise<Echo> {
  const run = await h.run(args, { home, env });
  if (run.code !== 1) throw new Error(`expected the fake's error (exit 1), got ${run.code}: ${run.stderr}`);
  return (JSON.parse(run.stderr) as { error: { details: Echo } }).error.details;
}

describe('the request envelope', () => {
  it('carries a fresh id, the session, a deadline from --timeout, the bearer token and the exact Host', async () => {
    const before = Date.now();
    const echo = await sent(['-s', 'm4q7z2', '--timeout', '5000', 'text']);
    expect(echo.authorized).toBe(true);
    expect(echo.contentType).toBe('application/json');
    expect(echo.host).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(Object.keys(echo.request).sort()).toEqual([
      'action',
      'agent',
      'deadline',
      'id',
      'params',
      'session',
    ]);
    // The CLI says it is the CLI (the side panel's Activity shows it).
    expect((echo.request as { agent?: unknown }).agent).toEqual({ kind: 'cli' });
    expect(echo.request.id).toMatch(/^[a-z2-7]{12}$/);
    expect(echo.request.session).toBe('m4q7z2');
    expect(echo.request.deadline).toBeGreaterThanOrEqual(before + 5000);
    expect(echo.request.deadline).toBeLessThan(Date.now() + 5000 + 1000);
    const again = await sent(['text']);
    expect(again.request.id).not.toBe(echo.request.id);
    expect(again.request).not.toHaveProperty('session');
  });

  it('defaults the deadline to 30 s', async () => {
    const before = Date.now();
    const echo = await sent(['debug', 'status']);
    expect(echo.request.deadline - before).toBeGreaterThanOrEqual(30_000);
    expect(echo.request.deadline - before).toBeLessThan(31_000 + 2_000);
  });
});

describe('params built from flags', () => {
  const cases: [string[], string, Record<string, unknown>][] = [
    [
      ['session', 'create', '--label', 'L', '--pacing', 'fast'],
      'session.create',
      { label: 'L', pacing: 'fast' },
    ],
    [['session', 'list'], 'session.list', {}],
    [['session', 'bind', '--tab', 't2', '--pacing', 'human'], 'session.bind', { tab: 't2', pacing: 'human' }],
    [['session', 'unbind'], 'session.unbind', {}],
    [['session', 'resume'], 'session.resume', {}],
    [['session', 'close'], 'session.close', {}],
    [
      ['tab', 'open', '--url', 'https://example.com', '--browser', 'headless'],
      'tab.open',
      { url: 'https://example.com', browser: 'headless' },
    ],
    [
      ['tab', 'open', 'https://example.com', '--background'],
      'tab.open',
      { url: 'https://example.com', active: false },
    ],
    [
      ['tab', 'open', 'https://example.com', '--foreground'],
      'tab.open',
      { url: 'https://example.com', active: true },
    ],
    [['tab', 'close', 't3'], 'tab.close', { tab: 't3' }],
    [['tab', 'close'], 'tab.close', {}],
    [['tab', 'list'], 'tab.list', {}],
    [['tab', 'pin', 't1'], 'tab.pin', { tab: 't1' }],
    [['tab', 'unpin'], 'tab.unpin', {}],
    [
      ['navigate', 'https://example.com', '--wait-until', 'domcontentloaded'],
      'navigate',
      { url: 'https://example.com', waitUntil: 'domcontentloaded' },
    ],
    [['back'], 'back', {}],
    [['forward', '--wait-until', 'none'], 'forward', { waitUntil: 'none' }],
    [['reload'], 'reload', {}],
    [['text', '--max-chars', '2000', '--offset', '4000'], 'text', { maxChars: 2000, offset: 4000 }],
    [['text', '--selector', 'main'], 'text', { target: { selector: 'main' } }],
    [['links', '--contains', 'docs', '--limit', '5'], 'links', { contains: 'docs', limit: 5 }],
    [
      ['elements', '--role', 'button', '--contains', 'Sign in', '--limit', '10'],
      'elements',
      { role: 'button', contains: 'Sign in', limit: 10 },
    ],
    [['inspect', 'el3'], 'inspect', { target: 'el3' }],
    [['inspect', '--selector', '#q'], 'inspect', { target: { selector: '#q' } }],
    [
      ['snapshot', '--max-chars', '500', '--contains', 'cart'],
      'snapshot',
      { maxChars: 500, contains: 'cart' },
    ],
    [
      ['screenshot', '--full-page', '--format', 'jpeg', '--quality', '80'],
      'screenshot',
      { fullPage: true, format: 'jpeg', quality: 80 },
    ],
    [['scroll'], 'scroll', {}],
    [['scroll', 'down', '--amount', '600'], 'scroll', { direction: 'down', amount: 600 }],
    [['scroll', '--to', 'bottom'], 'scroll', { to: 'bottom' }],
    [['scroll', 'el7', '--to', 'element'], 'scroll', { to: 'element', target: 'el7' }],
    [['scroll', 'up', 'el2'], 'scroll', { direction: 'up', target: 'el2' }],
    [['click', 'el3'], 'click', { target: 'el3' }],
    [
      ['click', '--selector', 'button.buy', '--button', 'right', '--count', '2'],
      'click',
      { target: { selector: 'button.buy' }, button: 'right', clickCount: 2 },
    ],
    [['hover', 'ln4'], 'hover', { target: 'ln4' }],
    [['fill', 'el2', 'Ada Lovelace'], 'fill', { target: 'el2', value: 'Ada Lovelace' }],
    [['fill', 'el2', '--value', ''], 'fill', { target: 'el2', value: '' }],
    [
      ['fill', '--selector', '#email', 'ada@example.com'],
      'fill',
      { target: { selector: '#email' }, value: 'ada@example.com' },
    ],
    [['type', 'hello world'], 'type', { text: 'hello world' }],
    [['type', 'hi', '--into', 'el2'], 'type', { text: 'hi', target: 'el2' }],
    [['press', 'Enter'], 'press', { key: 'Enter' }],
    [
      ['press', 'Control+A', '--selector', 'textarea'],
      'press',
      { key: 'Control+A', target: { selector: 'textarea' } },
    ],
    [['select', 'el4', 'fr', 'de'], 'select', { target: 'el4', values: ['fr', 'de'] }],
    [['select', '--selector', '#size', 'M'], 'select', { target: { selector: '#size' }, values: ['M'] }],
    [['wait', '--text', 'Done', '--timeout-ms', '5000'], 'wait', { text: 'Done', timeoutMs: 5000 }],
    [
      ['wait', '--selector', '.results', '--state', 'visible'],
      'wait',
      { selector: '.results', state: 'visible' },
    ],
    [['wait', '--handle', 'el3', '--state', 'hidden'], 'wait', { target: 'el3', state: 'hidden' }],
    [['wait', '--navigation'], 'wait', { navigation: true }],
    [['wait', '--text-gone', 'Loading'], 'wait', { textGone: 'Loading' }],
    [['wait', '--url', '*/done*', '--timeout-ms', '8000'], 'wait', { url: '*/done*', timeoutMs: 8000 }],
    [['wait', '--load'], 'wait', { load: true }],
    [['dialog', 'accept', '--text', 'yes'], 'dialog', { accept: true, promptText: 'yes' }],
    [['dialog', 'dismiss'], 'dialog', { accept: false }],
    [['debug', 'last', '--limit', '5'], 'debug.last', { limit: 5 }],
    [['debug', 'status'], 'debug.status', {}],
    [['debug', 'log', '--limit', '50'], 'debug.log', { limit: 50 }],
    [['call', 'click', '{"target":"el3","clickCount":2}'], 'click', { target: 'el3', clickCount: 2 }],
    [['call', 'debug.status'], 'debug.status', {}],
  ];

  it.concurrent.each(cases)('bproxy %j', async (args, action, params) => {
    const echo = await sent(['-s', 'm4q7z2', ...args]);
    expect(echo.request.action).toBe(action);
    expect(echo.request.params).toEqual(params);
  });
});

describe('batch', () => {
  it('sends the steps of a JSON file, as a list or as {"steps": …}, and refuses a file that is not JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bproxy-batch-'));
    const steps = [
      { action: 'fill', params: { target: 'el2', value: 'ada' } },
      { action: 'click', params: { target: 'el3' } },
    ];
    writeFileSync(join(dir, 'list.json'), JSON.stringify(steps));
    writeFileSync(join(dir, 'object.json'), JSON.stringify({ steps }));
    writeFileSync(join(dir, 'bad.json'), '[{"action":');
    for (const file of ['list.json', 'object.json']) {
      const echo = await sent(['-s', 'abcdef', 'batch', join(dir, file)]);
      expect(echo.request).toMatchObject({ action: 'batch', session: 'abcdef', params: { steps } });
    }
    const bad = await h.run(['-s', 'abcdef', 'batch', join(dir, 'bad.json')], { home });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('is not JSON');
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('screenshot output', () => {
  it('writes the image to --out (mode 0600) and prints its path, type and size', async () => {
    const out = join(fake.dir, 'shot.png');
    const run = await h.run(['-s', 'm4q7z2', 'screenshot', '--format', 'png', '--out', out], { home });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ path: out, mimeType: 'image/png', width: 3, height: 2 });
    expect(readFileSync(out, 'utf8')).toBe('not really a png');
    expect(statSync(out).mode & 0o777).toBe(0o600);
  });

  it('writes to BPROXY_HOME/screenshots (0700, the image 0600), not the working directory, without --out', async () => {
    rmSync(join(home, 'screenshots'), { recursive: true, force: true });
    const run = await h.run(['-s', 'm4q7z2', 'screenshot', '--format', 'png'], { home });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const { path } = JSON.parse(run.stdout) as { path: string };
    expect(dirname(path)).toBe(join(home, 'screenshots'));
    expect(basename(path)).toMatch(/^screenshot-\d{8}T\d{6}-[a-z2-7]{4}\.png$/);
    expect(readFileSync(path, 'utf8')).toBe('not really a png');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(lstatSync(dirname(path)).mode & 0o777).toBe(0o700);
  });

  it('refuses --out when it is a symbolic link, leaving the file it points to untouched', async () => {
    const target = join(fake.dir, 'victim.txt');
    writeFileSync(target, 'keep me');
    const link = join(fake.dir, 'planted.png');
    symlinkSync(target, link);
    const run = await h.run(['-s', 'm4q7z2', 'screenshot', '--format', 'png', '--out', link], { home });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stderr)).toMatchObject({
      ok: false,
      error: { code: 'LOCAL_ERROR', message: expect.stringContaining('symbolic link') },
    });
    expect(readFileSync(target, 'utf8')).toBe('keep me');
  });
});

describe('the screenshot folder another user prepared', () => {
  const theirs: string[] = [];
  afterAll(() => {
    for (const dir of theirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    rmSync(join(home, 'screenshots'), { recursive: true, force: true });
  });

  /** Runs `screenshot` without --out after `prepare` made BPROXY_HOME/screenshots. */
  async function shootInto(prepare: (folder: string) => void) {
    const folder = join(home, 'screenshots');
    rmSync(folder, { recursive: true, force: true });
    prepare(folder);
    const run = await h.run(['-s', 'm4q7z2', 'screenshot', '--format', 'png'], { home });
    return { run, folder };
  }

  it.each([
    [
      'world-writable',
      (folder: string) => {
        mkdirSync(folder);
        chmodSync(folder, 0o777);
      },
      /its mode is 0777, but group and others must have no access/,
    ],
    [
      'owned by another user',
      (folder: string) => {
        mkdirSync(folder, { mode: 0o700 });
        chownSync(folder, 65534, 65534);
      },
      /owned by uid 65534, not by you/,
    ],
    [
      'a symbolic link to a folder of theirs',
      (folder: string) => {
        const dir = mkdtempSync(join(tmpdir(), 'bproxy-theirs-'));
        theirs.push(dir);
        symlinkSync(dir, folder);
      },
      /is a symbolic link/,
    ],
  ])(
    'is refused with UNSAFE_STATE_FILE when %s, and nothing is written into it',
    async (_name, prepare, why) => {
      const { run, folder } = await shootInto(prepare);
      expect(run.code).toBe(1);
      expect(JSON.parse(run.stderr)).toMatchObject({
        ok: false,
        error: { code: 'UNSAFE_STATE_FILE', message: expect.stringMatching(why), hint: expect.any(String) },
      });
      expect(readdirSync(folder)).toEqual([]);
    },
  );
});
