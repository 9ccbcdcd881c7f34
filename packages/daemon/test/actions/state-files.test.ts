/**
 * Where state files may be: a relative name in BPROXY_HOME/state, an absolute path in the session's
 * folder or a folder the user allowed (files.json, --allow-files) — after every link of its folder is
 * resolved — and never a `..` part or a link out. Written 0600 through a rename, read bounded.
 */
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PathRefused, readConfined, statePath, writeConfined } from '../../src/actions/state-files';
import type { FileRules } from '../../src/files/allowed-folders';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function setup(): { home: string; session: string; outside: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'bproxy-state-files-')));
  roots.push(root);
  const home = join(root, 'home');
  mkdirSync(home, { mode: 0o700 });
  chmodSync(home, 0o700);
  const session = join(home, 'tmp', 'abcdef');
  mkdirSync(session, { recursive: true, mode: 0o700 });
  const outside = join(root, 'outside');
  mkdirSync(outside);
  return { home, session, outside };
}

const rulesOf = (session: string, allowed: string[] = []): FileRules => ({
  sessionFolder: session,
  folders: [session, ...allowed],
  maxBytes: 0,
});

const refusal = (fn: () => unknown): string => {
  try {
    fn();
    return 'allowed';
  } catch (error) {
    if (error instanceof PathRefused) return error.code;
    throw error;
  }
};

describe('state file paths', () => {
  it('puts a plain name in BPROXY_HOME/state (0700) and takes absolute paths in the session folder', () => {
    const { home, session } = setup();
    const rules = rulesOf(session);
    expect(statePath('login.json', home, rules, 'save')).toBe(join(home, 'state', 'login.json'));
    expect(lstatSync(join(home, 'state')).mode & 0o777).toBe(0o700);
    expect(statePath(join(session, 'a.json'), home, rules, 'save')).toBe(join(session, 'a.json'));
    writeFileSync(join(session, 'a.json'), '{}', { mode: 0o600 });
    expect(statePath(join(session, 'a.json'), home, rules, 'load')).toBe(join(session, 'a.json'));
  });

  it('refuses a .. part, a folder outside, a missing folder, and a folder or file that links out', () => {
    const { home, session, outside } = setup();
    const rules = rulesOf(session);
    mkdirSync(join(home, 'state'), { mode: 0o700 });
    symlinkSync(outside, join(home, 'state', 'out'));
    symlinkSync(join(outside, 'x.json'), join(home, 'state', 'x.json'));
    writeFileSync(join(outside, 'secret.json'), '{}');
    symlinkSync(join(outside, 'secret.json'), join(home, 'state', 'y.json'));
    mkdirSync(join(home, 'state', 'sub'));
    for (const given of [
      '../token',
      'a/../../b.json',
      join(home, 'state', '..', 'token'),
      join(outside, 'a.json'),
      join(home, 'token'),
      'nowhere/a.json',
      'out/a.json',
      'x.json',
      'y.json',
      // Refused even where it would land inside: a path names its file directly.
      'sub/../inside.json',
      'state\0.json',
    ]) {
      expect(
        refusal(() => statePath(given, home, rules, 'save')),
        given,
      ).toBe('PATH_NOT_ALLOWED');
      // A file to read that is not there inside is FILE_NOT_FOUND; everything else is refused alike.
      const read = refusal(() => statePath(given, home, rules, 'load'));
      expect(read, given).toBe(given === 'nowhere/a.json' ? 'FILE_NOT_FOUND' : 'PATH_NOT_ALLOWED');
    }
  });

  it('takes the folders the user allowed (files.json, --allow-files), and no environment variable', () => {
    const { home, session, outside } = setup();
    expect(statePath(join(outside, 'a.json'), home, rulesOf(session, [outside]), 'save')).toBe(
      join(outside, 'a.json'),
    );
    process.env.BPROXY_ALLOW_FILES = outside;
    try {
      expect(refusal(() => statePath(join(outside, 'a.json'), home, rulesOf(session), 'save'))).toBe(
        'PATH_NOT_ALLOWED',
      );
    } finally {
      delete process.env.BPROXY_ALLOW_FILES;
    }
  });

  it('writes 0600 through a rename, never through a link planted after the check, and reads bounded', () => {
    const { home, session, outside } = setup();
    const path = statePath('a.json', home, rulesOf(session), 'save');
    symlinkSync(join(outside, 'victim.json'), path);
    writeConfined(path, '{"cookies":[],"origins":[]}');
    expect(lstatSync(path).isSymbolicLink()).toBe(false);
    expect(lstatSync(path).mode & 0o777).toBe(0o600);
    expect(existsSync(join(outside, 'victim.json'))).toBe(false);
    expect(readConfined(path)).toBe('{"cookies":[],"origins":[]}');
    const big = join(home, 'state', 'big.json');
    writeFileSync(big, Buffer.alloc(8 * 1024 * 1024 + 1, 0x20), { mode: 0o600 });
    expect(refusal(() => readConfined(big))).toBe('STATE_FILE_INVALID');
    expect(readFileSync(path, 'utf8')).toContain('cookies');
  });
});
