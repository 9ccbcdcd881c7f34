/**
 * Where state files may be: a plain name in BPROXY_HOME/state, an absolute path in the session's
 * folder or a folder of BPROXY_ALLOW_FILES — after every link of its folder is resolved — and never a
 * `..` part or a file that is a symbolic link. Written 0600 through a rename, read bounded.
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
import {
  PathRefused,
  allowedFolders,
  confinePath,
  readConfined,
  writeConfined,
} from '../../src/actions/state-files';

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
    const folders = allowedFolders(home, session, {});
    expect(confinePath('login.json', folders)).toBe(join(home, 'state', 'login.json'));
    expect(lstatSync(join(home, 'state')).mode & 0o777).toBe(0o700);
    expect(confinePath(join(session, 'a.json'), folders)).toBe(join(session, 'a.json'));
  });

  it('refuses a .. part, a folder outside, a missing folder, and a folder or file that links out', () => {
    const { home, session, outside } = setup();
    const folders = allowedFolders(home, session, {});
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
    ])
      expect(
        refusal(() => confinePath(given, folders)),
        given,
      ).toBe('PATH_NOT_ALLOWED');
  });

  it('takes the folders named in BPROXY_ALLOW_FILES, and only absolute ones', () => {
    const { home, session, outside } = setup();
    const folders = allowedFolders(home, session, { BPROXY_ALLOW_FILES: `relative:${outside}` });
    expect(confinePath(join(outside, 'a.json'), folders)).toBe(join(outside, 'a.json'));
    expect(folders.roots).not.toContain('relative');
  });

  it('writes 0600 through a rename, never through a link planted after the check, and reads bounded', () => {
    const { home, session, outside } = setup();
    const folders = allowedFolders(home, session, {});
    const path = confinePath('a.json', folders);
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
