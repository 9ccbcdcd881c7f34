import {
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
import { afterEach, describe, expect, it } from 'vitest';
import { writePrivateFile as writePrivate, type FileRules } from '../../src/files/allowed-folders';
import { allowedPath } from '../../src/observe/network-files';

const made: string[] = [];
const rules = (session: string, allowed: string[] = []): FileRules => ({
  sessionFolder: session,
  folders: [session, ...allowed],
  maxBytes: 0,
});
const temp = (): string => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'bproxy-netfiles-')));
  made.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the network read's files", () => {
  it("puts a plain name in the session's folder and refuses .., absolute paths and links out of it", () => {
    const root = temp();
    const session = join(root, 'tmp', 's1');
    mkdirSync(join(session, 'sub'), { recursive: true });
    const ok = allowedPath(rules(session), 'sub/page.har');
    expect(ok).toEqual({ ok: true, path: join(session, 'sub', 'page.har') });
    for (const bad of ['../x.har', 'a/../../x.har', join(root, 'x.har'), 'a\0b'])
      expect(allowedPath(rules(session), bad)).toMatchObject({
        ok: false,
        outcome: { ok: false, error: { code: 'PATH_NOT_ALLOWED' } },
      });
    const outside = join(root, 'outside');
    mkdirSync(outside);
    symlinkSync(outside, join(session, 'link'));
    expect(allowedPath(rules(session), 'link/x.har')).toMatchObject({ ok: false });
  });

  it('writes an absolute path only inside a folder the user allowed (files.json, --allow-files)', () => {
    const root = realpathSync(temp());
    const allowed = join(root, 'exports');
    mkdirSync(allowed);
    mkdirSync(join(root, 's'));
    expect(allowedPath(rules(join(root, 's'), [allowed]), join(allowed, 'a.har'))).toEqual({
      ok: true,
      path: join(allowed, 'a.har'),
    });
    expect(allowedPath(rules(join(root, 's'), [allowed]), join(root, 'a.har'))).toMatchObject({ ok: false });
  });

  it('writes 0600 and refuses to write through a link', () => {
    const root = temp();
    const file = join(root, 'out.har');
    writeFileSync(file, 'old', { mode: 0o644 });
    writePrivate(file, 'new');
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(lstatSync(file).mode & 0o777).toBe(0o600);
    const target = join(root, 'target');
    writeFileSync(target, 'keep');
    symlinkSync(target, join(root, 'link.har'));
    expect(() => writePrivate(join(root, 'link.har'), 'x')).toThrow();
    expect(readFileSync(target, 'utf8')).toBe('keep');
  });
});
