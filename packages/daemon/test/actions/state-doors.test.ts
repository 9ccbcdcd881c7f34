/**
 * The daemon's doors for state.* and cookies.*, with a scripted extension as the user's own Chrome:
 * reading, exporting or clearing the user's cookies is refused until the user allows it in
 * BPROXY_HOME/user-chrome.json, before the browser hears of the request; state files are confined to
 * the allowed folders, written 0600 from what the driver answered, and read and checked here, never by
 * the page.
 */
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SITE_POLICY, type BproxyResponse } from '@bproxy/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryPolicy } from '../../src/policy/site-policy';
import { FakeExtension, okData, startDaemon, type TestDaemon } from '../harness';

const STATE = {
  cookies: [
    {
      name: 'session',
      value: 's3cr3t',
      domain: 'x.test',
      path: '/',
      expires: -1,
      httpOnly: true,
      secure: true,
      sameSite: 'Lax',
    },
  ],
  origins: [{ origin: 'https://x.test', localStorage: [{ name: 'k', value: 'v' }] }],
};

let daemon: TestDaemon | undefined;
let ext: FakeExtension | undefined;
let made: string | undefined;
afterEach(async () => {
  await ext?.drop();
  await daemon?.close();
  if (made !== undefined) rmSync(made, { recursive: true, force: true });
  ext = undefined;
  daemon = undefined;
  made = undefined;
});

async function userChrome(): Promise<{ home: string; session: string; d: TestDaemon; e: FakeExtension }> {
  const home = mkdtempSync(join(tmpdir(), 'bproxy-state-doors-'));
  made = home;
  chmodSync(home, 0o700);
  // State export asks in the user's Chrome by default (approvals): the person allowed it here.
  const sitePolicy = memoryPolicy({ ...DEFAULT_SITE_POLICY, classes: { state_export: 'allow' } });
  const d = await startDaemon({ tmpRoot: join(home, 'tmp'), sitePolicy });
  daemon = d;
  const e = new FakeExtension(d);
  ext = e;
  e.behaviour = (req) => {
    switch (req.action) {
      case 'cookies.list':
        return { ok: true, data: { url: 'https://x.test/', cookies: STATE.cookies } };
      case 'cookies.clear':
        return { ok: true, data: { url: 'https://x.test/', cleared: 1 } };
      case 'state.save':
        return { ok: true, data: STATE };
      case 'state.load':
        return { ok: true, data: { cookies: 1, origins: 1 } };
      default:
        return e.defaultAnswer(req);
    }
  };
  await e.connect();
  const { session } = okData<{ session: string }>(await d.call('tab.open', { url: 'https://x.test/' }));
  return { home, session, d, e };
}

function code(res: BproxyResponse): string {
  return res.ok ? 'ok' : res.error.code;
}

const reached = (e: FakeExtension, action: string): number =>
  e.received.filter((r) => r.action === action).length;

describe("the user's own Chrome: cookies are the user's", () => {
  it("refuses to read, export or clear the user's cookies until the user allows it, before the browser hears of it", async () => {
    const { home, session, d, e } = await userChrome();
    expect(code(await d.call('cookies.list', {}, session))).toBe('STATE_NOT_ALLOWED');
    expect(code(await d.call('cookies.clear', {}, session))).toBe('STATE_NOT_ALLOWED');
    expect(code(await d.call('state.save', { path: 'mine.json' }, session))).toBe('STATE_NOT_ALLOWED');
    expect(existsSync(join(home, 'state', 'mine.json'))).toBe(false);
    // A file others could have written, or one that does not say yes, is no permission.
    const permission = join(home, 'user-chrome.json');
    writeFileSync(permission, '{"cookies": true}');
    chmodSync(permission, 0o644);
    expect(code(await d.call('cookies.list', {}, session))).toBe('STATE_NOT_ALLOWED');
    chmodSync(permission, 0o600);
    writeFileSync(permission, '{"cookies": "yes"}');
    expect(code(await d.call('cookies.list', {}, session))).toBe('STATE_NOT_ALLOWED');
    expect(reached(e, 'cookies.list') + reached(e, 'cookies.clear') + reached(e, 'state.save')).toBe(0);
    // Setting and loading never need it: the extension keeps what the user has.
    expect(reached(e, 'cookies.set')).toBe(0);

    writeFileSync(permission, '{"cookies": true}');
    expect(code(await d.call('cookies.list', {}, session))).toBe('ok');
    expect(code(await d.call('cookies.clear', {}, session))).toBe('ok');
    expect(reached(e, 'cookies.list')).toBe(1);
  });

  it('writes state save from what the driver answered, 0600 in BPROXY_HOME/state, and refuses a path out before asking the driver', async () => {
    const { home, session, d, e } = await userChrome();
    writeFileSync(join(home, 'user-chrome.json'), '{"cookies": true}', { mode: 0o600 });
    const saved = okData<{ path: string; cookies: number; origins: number }>(
      await d.call('state.save', { path: 'mine.json' }, session),
    );
    expect(saved).toEqual({ path: join(home, 'state', 'mine.json'), cookies: 1, origins: 1 });
    expect(lstatSync(saved.path).mode & 0o777).toBe(0o600);
    expect(lstatSync(join(home, 'state')).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(saved.path, 'utf8'))).toEqual(STATE);
    const asked = reached(e, 'state.save');
    for (const path of [
      '../out.json',
      '/etc/bproxy-out.json',
      join(tmpdir(), 'out.json'),
      'state/../../x.json',
    ])
      expect(code(await d.call('state.save', { path }, session)), path).toBe('PATH_NOT_ALLOWED');
    expect(reached(e, 'state.save')).toBe(asked);
  });

  it("reads state load's file itself and forwards its content; a file that is not Playwright's format reaches no browser", async () => {
    const { home, session, d, e } = await userChrome();
    mkdirSync(join(home, 'state'), { recursive: true, mode: 0o700 });
    writeFileSync(join(home, 'state', 'pw.json'), JSON.stringify({ ...STATE, extra: 'ignored' }), {
      mode: 0o600,
    });
    expect(okData(await d.call('state.load', { path: 'pw.json' }, session))).toEqual({
      cookies: 1,
      origins: 1,
      path: join(home, 'state', 'pw.json'),
    });
    const forwarded = e.received.filter((r) => r.action === 'state.load');
    expect(forwarded.map((r) => r.params)).toEqual([{ state: STATE }]);
    writeFileSync(join(home, 'state', 'bad.json'), '{"cookies": [{"name": 1}], "origins": []}', {
      mode: 0o600,
    });
    expect(code(await d.call('state.load', { path: 'bad.json' }, session))).toBe('STATE_FILE_INVALID');
    expect(code(await d.call('state.load', { path: 'missing.json' }, session))).toBe('FILE_NOT_FOUND');
    expect(reached(e, 'state.load')).toBe(1);
  });
});
