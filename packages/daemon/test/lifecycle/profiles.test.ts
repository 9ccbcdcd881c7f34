/**
 * Named profiles of the launched browser: BPROXY_HOME/profiles/NAME made 0700 and checked, and a
 * profile another live browser holds (Chromium's SingletonLock) refused with a sentence saying so.
 */
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { browserChoice } from '../../src/lifecycle/browser-launchers';
import { assertProfileFree, profileFolder } from '../../src/lifecycle/profiles';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const home = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'bproxy-profiles-'));
  made.push(dir);
  chmodSync(dir, 0o700);
  return dir;
};

const NO_ARGS = {
  browser: null,
  attach: null,
  cdpUrl: null,
  cdpMode: null,
  cdpMaxBrowsers: null,
  browserIdle: null,
  allowFileUrls: null,
  profile: null,
  allowFiles: [],
} as const;

describe('profiles of the launched browser', () => {
  it('keeps a profile in BPROXY_HOME/profiles/NAME, 0700, and refuses one open to others or a link', () => {
    const h = home();
    const dir = profileFolder(h, 'shop');
    expect(dir).toBe(join(h, 'profiles', 'shop'));
    expect(lstatSync(dir).mode & 0o777).toBe(0o700);
    chmodSync(dir, 0o755);
    expect(() => profileFolder(h, 'shop')).toThrow(/no one else can open/);
    const elsewhere = join(home(), 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    symlinkSync(elsewhere, join(h, 'profiles', 'linked'));
    expect(() => profileFolder(h, 'linked')).toThrow(/not a plain folder/);
  });

  it('refuses a profile a live browser holds, and takes over the lock of one that is gone', () => {
    const dir = join(home(), 'p');
    mkdirSync(dir);
    symlinkSync(`${hostname()}-${process.pid}`, join(dir, 'SingletonLock'));
    expect(() => assertProfileFree(dir, 'p')).toThrow(
      `profile "p" is in use by another browser (pid ${process.pid})`,
    );
    const gone = join(home(), 'q');
    mkdirSync(gone);
    symlinkSync(`${hostname()}-999999999`, join(gone, 'SingletonLock'));
    expect(() => assertProfileFree(gone, 'q')).not.toThrow();
  });

  it('reads BPROXY_PROFILE, checks its name, and refuses it when no browser is launched', () => {
    expect(browserChoice(NO_ARGS, { BPROXY_PROFILE: 'work' }).profile).toBe('work');
    expect(browserChoice({ ...NO_ARGS, profile: 'cli' }, { BPROXY_PROFILE: 'work' }).profile).toBe('cli');
    expect(browserChoice(NO_ARGS, {}).profile).toBeNull();
    expect(() => browserChoice(NO_ARGS, { BPROXY_PROFILE: '../x' })).toThrow(
      /BPROXY_PROFILE must be a plain name/,
    );
    expect(() => browserChoice({ ...NO_ARGS, browser: 'none', profile: 'x' }, {})).toThrow(
      /--profile is for a browser bproxy launches/,
    );
  });
});
