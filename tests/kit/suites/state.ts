/**
 * Logins that persist, cookies and emulation, written once and run on both drivers through the real CLI
 * and a real MCP client, by handles only. The fixture pages: persist-signin.html shows what a visit
 * finds — a session cookie and a name in localStorage, both, one or neither — and emulation.html prints
 * the viewport, time zone, locale, color scheme, touch points, user agent and position the browser
 * reports. On the user's own Chrome (the extension) the suite asserts what is refused there: reading
 * or exporting cookies until the user allows it, overwriting a cookie the browser has, and any
 * emulation beyond the tab's viewport and color scheme.
 */
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Agent, type DriverUnderTest } from '../agent';
import { allowClasses } from '../allow-classes';
import { McpClient } from '../mcp';

const T = 60_000;

export interface StateDriverUnderTest extends DriverUnderTest {
  /** The user's own Chrome (the extension): cookies are theirs, emulation stays inside the tab. */
  userChrome: boolean;
}

interface StateFile {
  cookies: { name: string; value: string; domain: string; path: string }[];
  origins: { origin: string; localStorage: { name: string; value: string }[] }[];
}

interface Emulated {
  applied: string[];
  notApplied?: { feature: string; why: string }[];
}

export function defineStateSuite(driver: StateDriverUnderTest): void {
  describe(`logins, cookies and emulation on ${driver.label}`, () => {
    let agent: Agent | undefined;
    const a = (): Agent => {
      if (!agent) throw new Error(`${driver.label} did not start`);
      return agent;
    };
    beforeAll(async () => {
      agent = new Agent(await driver.start());
      // State is saved and cookies listed: a person allowed state export (approvals; in the user's
      // Chrome user-chrome.json's door still answers first).
      allowClasses(agent.cli.home, ['state_export']);
    }, 120_000);

    const stateDir = (): string => join(a().cli.home, 'state');
    /** What the user does by hand to let agents read their Chrome's cookies (no action can). */
    const allowUserCookies = (): void => {
      const file = join(a().cli.home, 'user-chrome.json');
      writeFileSync(file, '{"cookies": true}\n', { mode: 0o600 });
      chmodSync(file, 0o600);
    };
    const status = async (s: string): Promise<string> => {
      const text = await a().text(s);
      const line = text.split('\n').find((l) => /Welcome|Signed|Stored|Session|Not signed/.test(l));
      return line ?? text;
    };
    const reload = async (s: string): Promise<void> => {
      await a().cli.ok(['reload', '-s', s]);
    };

    it(
      driver.userChrome
        ? "refuses to read, export or clear the user's cookies until the user allows it, and writes no file"
        : 'lists and exports the cookies of a browser bproxy launched without any permission',
      async () => {
        const s = await a().session('persist-signin.html');
        const file = `refused-${s}.json`;
        if (!driver.userChrome) {
          expect((await a().cli.ok<{ cookies: unknown[] }>(['cookies', 'list', '-s', s])).cookies).toEqual(
            [],
          );
          await a().cli.ok(['state', 'save', '-s', s, file]);
          expect(existsSync(join(stateDir(), file))).toBe(true);
          await a().close(s);
          return;
        }
        expect(await a().cli.failCode(['cookies', 'list', '-s', s])).toBe('STATE_NOT_ALLOWED');
        expect(await a().cli.failCode(['cookies', 'clear', '-s', s])).toBe('STATE_NOT_ALLOWED');
        expect(await a().cli.failCode(['state', 'save', '-s', s, file])).toBe('STATE_NOT_ALLOWED');
        expect(existsSync(join(stateDir(), file))).toBe(false);
        // A permission file others could have written counts as none.
        const loose = join(a().cli.home, 'user-chrome.json');
        writeFileSync(loose, '{"cookies": true}\n');
        chmodSync(loose, 0o644);
        expect(await a().cli.failCode(['state', 'save', '-s', s, file])).toBe('STATE_NOT_ALLOWED');
        expect(existsSync(join(stateDir(), file))).toBe(false);
        allowUserCookies();
        expect((await a().cli.ok<{ cookies: unknown[] }>(['cookies', 'list', '-s', s])).cookies).toEqual([]);
        await a().close(s);
      },
      T,
    );

    it(
      driver.userChrome
        ? 'a sign-in saved with state save comes back with state load, which never overwrites what the browser has'
        : 'a sign-in saved with state save comes back with state load, and a Playwright state file signs in another user',
      async () => {
        if (driver.userChrome) allowUserCookies();
        const s = await a().session('persist-signin.html');
        expect(await status(s)).toBe('Not signed in');
        const [name, signIn] = await a().handles(s, 'Your name', 'Sign in');
        await a().cli.ok(['fill', '-s', s, name, 'Ada']);
        await a().cli.ok(['click', '-s', s, signIn]);
        expect(await status(s)).toBe('Signed in as Ada');

        const file = `login-${s}.json`;
        const saved = await a().cli.ok<{ path: string; cookies: number; origins: number }>([
          'state',
          'save',
          '-s',
          s,
          file,
        ]);
        expect(saved).toMatchObject({ path: join(stateDir(), file), origins: 1 });
        expect(lstatSync(saved.path).mode & 0o777).toBe(0o600);
        const state = JSON.parse(readFileSync(saved.path, 'utf8')) as StateFile;
        const session = state.cookies.find((c) => c.name === 'session');
        expect(session).toMatchObject({ domain: '127.0.0.1', path: '/' });
        expect(state.origins).toEqual([
          { origin: new URL(a().url('')).origin, localStorage: [{ name: 'profileName', value: 'Ada' }] },
        ]);

        expect(await a().cli.ok(['cookies', 'clear', '-s', s, 'session'])).toMatchObject({ cleared: 1 });
        await reload(s);
        expect(await status(s)).toBe('Stored name Ada without a session cookie: sign in again');

        const loaded = await a().cli.ok<{ cookies: number; kept?: string[] }>([
          'state',
          'load',
          '-s',
          s,
          file,
        ]);
        expect(loaded.cookies).toBe(1);
        await reload(s);
        expect(await status(s)).toBe(`Welcome back, Ada (session ${session?.value ?? ''})`);

        // A state file as Playwright writes it, for another user.
        const other = `playwright-${s}.json`;
        writeFileSync(
          join(stateDir(), other),
          JSON.stringify({
            cookies: [
              {
                name: 'session',
                value: 'pw123',
                domain: '127.0.0.1',
                path: '/',
                expires: -1,
                httpOnly: false,
                secure: false,
                sameSite: 'Lax',
              },
            ],
            origins: [
              {
                origin: new URL(a().url('')).origin,
                localStorage: [{ name: 'profileName', value: 'Grace' }],
              },
            ],
          }),
          { mode: 0o600 },
        );
        const second = await a().cli.ok<{ cookies: number; kept?: string[] }>([
          'state',
          'load',
          '-s',
          s,
          other,
        ]);
        await reload(s);
        if (driver.userChrome) {
          expect(second.cookies).toBe(0);
          expect(second.kept).toEqual(['session', `localStorage ${new URL(a().url('')).origin} profileName`]);
          expect(await status(s)).toBe(`Welcome back, Ada (session ${session?.value ?? ''})`);
        } else {
          expect(second).toMatchObject({ cookies: 1 });
          expect(await status(s)).toBe('Welcome back, Grace (session pw123)');
        }
        await a().cli.ok(['cookies', 'clear', '-s', s]);
        await a().close(s);
      },
      T,
    );

    it(
      "sets, lists and clears the current page's cookies, and the page sees them",
      async () => {
        if (driver.userChrome) allowUserCookies();
        const s = await a().session('persist-signin.html');
        expect(await a().cli.ok(['cookies', 'set', '-s', s, 'theme', 'dark'])).toMatchObject({
          name: 'theme',
          set: true,
        });
        await reload(s);
        expect(await a().text(s)).toContain('Theme cookie: dark');
        const listed = await a().cli.ok<{ cookies: { name: string; value: string }[] }>([
          'cookies',
          'list',
          '-s',
          s,
        ]);
        expect(listed.cookies.map((c) => [c.name, c.value])).toContainEqual(['theme', 'dark']);
        const again = await a().cli.ok<{ set: boolean; reason?: string }>([
          'cookies',
          'set',
          '-s',
          s,
          'theme',
          'light',
        ]);
        await reload(s);
        if (driver.userChrome) {
          expect(again.set).toBe(false);
          expect(again.reason).toContain('kept');
          expect(await a().text(s)).toContain('Theme cookie: dark');
        } else {
          expect(again.set).toBe(true);
          expect(await a().text(s)).toContain('Theme cookie: light');
        }
        expect(await a().cli.ok(['cookies', 'clear', '-s', s, 'theme'])).toMatchObject({ cleared: 1 });
        await reload(s);
        expect(await a().text(s)).toContain('Theme cookie: none');
        await a().close(s);
      },
      T,
    );

    it(
      'refuses a state file out of the allowed folders — a .. part, another folder, a link out — and writes nothing',
      async () => {
        if (driver.userChrome) allowUserCookies();
        const s = await a().session('persist-signin.html');
        const outside = join(tmpdir(), `bproxy-state-outside-${s}`);
        mkdirSync(outside, { recursive: true });
        mkdirSync(stateDir(), { recursive: true, mode: 0o700 });
        symlinkSync(join(outside, 'target.json'), join(stateDir(), `link-${s}.json`));
        symlinkSync(outside, join(stateDir(), `dir-${s}`));
        const refusals = [
          ['state', 'save', '-s', s, '../escape.json'],
          ['state', 'save', '-s', s, join(outside, 'direct.json')],
          ['state', 'save', '-s', s, `link-${s}.json`],
          ['state', 'save', '-s', s, `dir-${s}/through.json`],
          ['state', 'load', '-s', s, `link-${s}.json`],
        ];
        for (const line of refusals)
          expect(await a().cli.failCode(line), line.join(' ')).toBe('PATH_NOT_ALLOWED');
        expect(existsSync(join(a().cli.home, 'escape.json'))).toBe(false);
        expect(existsSync(join(outside, 'direct.json'))).toBe(false);
        expect(existsSync(join(outside, 'target.json'))).toBe(false);
        expect(existsSync(join(outside, 'through.json'))).toBe(false);
        writeFileSync(join(stateDir(), `bad-${s}.json`), '{"cookies": "no"}', { mode: 0o600 });
        expect(await a().cli.failCode(['state', 'load', '-s', s, `bad-${s}.json`])).toBe(
          'STATE_FILE_INVALID',
        );
        rmSync(outside, { recursive: true, force: true });
        await a().close(s);
      },
      T,
    );

    it(
      driver.userChrome
        ? 'emulates the viewport and color scheme in the tab only, names what it did not apply, and ends with the session'
        : 'emulates viewport, scale, color scheme, time zone, locale, position, a device and the network in the tab, and ends with the session',
      async () => {
        const s = await a().session('emulation.html');
        const lineOf = (text: string, key: string): string =>
          text.split('\n').find((l) => l.startsWith(`${key}:`)) ?? `(no ${key} line)`;
        const before = await a().text(s);
        const emulated = await a().cli.ok<Emulated>([
          'emulate',
          '-s',
          s,
          '--viewport',
          '500x700',
          '--scale',
          '2',
          '--color-scheme',
          'dark',
          '--timezone',
          'Asia/Tokyo',
          '--locale',
          'fr-FR',
          '--geo',
          '48.8584,2.2945',
        ]);
        await a().cli.ok(['click', '-s', s, await a().element(s, 'Refresh')]);
        const after = await a().text(s);
        expect(lineOf(after, 'viewport')).toBe('viewport: 500x700 at 2x');
        expect(lineOf(after, 'color scheme')).toBe('color scheme: dark');
        if (driver.userChrome) {
          expect(emulated.applied).toEqual(['viewport', 'colorScheme']);
          expect(emulated.notApplied?.map((n) => n.feature)).toEqual(['geolocation', 'timezone', 'locale']);
          expect(lineOf(after, 'timezone')).toBe(lineOf(before, 'timezone'));
          expect(lineOf(after, 'locale')).toBe(lineOf(before, 'locale'));
        } else {
          expect(emulated).toEqual({
            applied: ['viewport', 'geolocation', 'timezone', 'locale', 'colorScheme'],
          });
          expect(lineOf(after, 'timezone')).toBe('timezone: Asia/Tokyo');
          expect(lineOf(after, 'locale')).toBe('locale: fr-FR');
          await a().cli.ok(['click', '-s', s, await a().element(s, 'Locate me')]);
          await a().cli.ok(['wait', '-s', s, '--text', 'position: 48.8584,2.2945']);
        }

        const phone = await a().cli.ok<Emulated>(['emulate', '-s', s, '--device', 'pixel-8']);
        await a().cli.ok(['click', '-s', s, await a().element(s, 'Refresh')]);
        const onPhone = await a().text(s);
        if (driver.userChrome) {
          expect(phone.applied).toEqual(['viewport']);
          expect(phone.notApplied?.map((n) => n.feature)).toEqual(['userAgent', 'touch']);
          expect(lineOf(onPhone, 'viewport')).toBe('viewport: 412x915 at 2.625x');
          expect(lineOf(onPhone, 'user agent')).toBe(lineOf(before, 'user agent'));
        } else {
          expect(phone.applied).toEqual(['viewport', 'userAgent', 'touch']);
          expect(lineOf(onPhone, 'viewport')).toBe('viewport: 412x915 at 2.625x');
          expect(lineOf(onPhone, 'touch points')).toBe('touch points: 5');
          expect(lineOf(onPhone, 'user agent')).toContain('Pixel 8');
          expect(await a().cli.ok(['emulate', '-s', s, '--offline'])).toEqual({ applied: ['offline'] });
          await a().cli.ok(['click', '-s', s, await a().element(s, 'Refresh')]);
          expect(lineOf(await a().text(s), 'online')).toBe('online: no');
          await a().cli.ok(['emulate', '-s', s, '--online', '--network', 'fast-3g']);
          await a().cli.ok(['click', '-s', s, await a().element(s, 'Refresh')]);
          expect(lineOf(await a().text(s), 'online')).toBe('online: yes');
        }
        await a().close(s);

        // The session's tab went with it: a new one shows the browser as it was.
        const next = await a().session('emulation.html');
        const fresh = await a().text(next);
        for (const key of ['viewport', 'color scheme', 'timezone', 'locale', 'user agent'])
          expect(lineOf(fresh, key)).toBe(lineOf(before, key));
        await a().close(next);
      },
      T,
    );

    it(
      'through MCP: cookies_set, cookies_list, emulate and state_save answer as the CLI does, and a path escape is an error',
      async () => {
        if (driver.userChrome) allowUserCookies();
        const env = a().env;
        const client = await McpClient.start(a().cli.environment(), [
          '--browser',
          env.browser,
          '--caps',
          'state,emulation',
        ]);
        try {
          await client.ok('tab_open', { url: a().url('persist-signin.html') });
          expect(JSON.parse(await client.ok('cookies_set', { name: 'via', value: 'mcp' }))).toMatchObject({
            set: true,
          });
          const listed = JSON.parse(await client.ok('cookies_list')) as { cookies: { name: string }[] };
          expect(listed.cookies.map((c) => c.name)).toContain('via');
          const emulated = JSON.parse(await client.ok('emulate', { colorScheme: 'dark' })) as Emulated;
          expect(emulated.applied).toEqual(['colorScheme']);
          const file = `mcp-${Date.now()}.json`;
          const saved = JSON.parse(await client.ok('state_save', { path: file })) as { path: string };
          expect(saved.path).toBe(join(stateDir(), file));
          expect(lstatSync(saved.path).mode & 0o777).toBe(0o600);
          const escape = await client.call('state_save', { path: '../mcp-escape.json' });
          expect(escape.isError).toBe(true);
          expect(escape.text).toContain('PATH_NOT_ALLOWED');
          expect(existsSync(join(a().cli.home, 'mcp-escape.json'))).toBe(false);
          await client.ok('cookies_clear', { name: 'via' });
        } finally {
          await client.close();
        }
      },
      T,
    );
  });
}
