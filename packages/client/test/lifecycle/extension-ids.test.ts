import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_EXTENSION_ID } from '@bproxy/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import {
  addTrustedExtensionId,
  checkExtensionId,
  trustedExtensionIds,
} from '../../src/lifecycle/extension-ids';
import { statePaths } from '../../src/lifecycle/paths';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});
function home(): string {
  const root = mkdtempSync(join(tmpdir(), 'bproxy-ids-'));
  roots.push(root);
  return join(root, 'home');
}
const other = 'abcdefghijklmnopabcdefghijklmnop';

describe('the trusted extension ids (BPROXY_HOME/extensions.json)', () => {
  it('trusts the development id alone when there is no file', () => {
    expect(trustedExtensionIds(statePaths(home()))).toEqual([DEFAULT_EXTENSION_ID]);
  });

  it('adds an id once, in a 0600 file of a 0700 home it creates, and never lists a built-in id', () => {
    const paths = statePaths(home());
    expect(addTrustedExtensionId(paths, other)).toBe(true);
    expect(addTrustedExtensionId(paths, other)).toBe(false);
    expect(addTrustedExtensionId(paths, DEFAULT_EXTENSION_ID)).toBe(false);
    expect(JSON.parse(readFileSync(paths.extensions, 'utf8'))).toEqual({ ids: [other] });
    expect(statSync(paths.extensions).mode & 0o777).toBe(0o600);
    expect(statSync(paths.home).mode & 0o777).toBe(0o700);
    expect(trustedExtensionIds(paths)).toEqual([DEFAULT_EXTENSION_ID, other]);
  });

  it('refuses an id that is not 32 letters a-p, saying what it accepts', () => {
    expect(() => checkExtensionId('q'.repeat(32))).toThrow('32 letters a-p');
    expect(() => addTrustedExtensionId(statePaths(home()), 'a'.repeat(31))).toThrow('32 letters a-p');
  });

  it('refuses a file open to others, a symlink, and content outside the format (fail closed)', () => {
    const paths = statePaths(home());
    mkdirSync(paths.home, { recursive: true, mode: 0o700 });
    writeFileSync(paths.extensions, JSON.stringify({ ids: [other] }), { mode: 0o600 });
    chmodSync(paths.extensions, 0o640);
    expect(() => trustedExtensionIds(paths)).toThrow(/its mode is 0640.*chmod 600/);
    expect(() => addTrustedExtensionId(paths, 'b'.repeat(32))).toThrow(/its mode is 0640/);
    rmSync(paths.extensions);
    const elsewhere = join(paths.home, '..', 'planted.json');
    writeFileSync(elsewhere, JSON.stringify({ ids: [other] }), { mode: 0o600 });
    symlinkSync(elsewhere, paths.extensions);
    expect(() => trustedExtensionIds(paths)).toThrow(/symbolic link/);
    rmSync(paths.extensions);
    for (const bad of ['not json', '{"ids":["ZZ"]}', `{"ids":["${other}"],"more":1}`, '[]']) {
      writeFileSync(paths.extensions, bad, { mode: 0o600 });
      expect(() => trustedExtensionIds(paths), bad).toThrow(/is not \{"ids"/);
      rmSync(paths.extensions);
    }
  });
});
