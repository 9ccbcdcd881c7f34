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
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LifecycleError } from '../../src/lifecycle/errors';
import { ensurePrivateFolder, writeNewPrivateFile } from '../../src/lifecycle/private-folder';

let root: string;
let home: string;
let folder: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'bproxy-private-'));
  home = join(root, 'home');
  folder = join(home, 'screenshots');
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const unsafe = (why: RegExp) =>
  expect.objectContaining({ kind: 'unsafe-state', message: expect.stringMatching(why) });

describe('private folders in BPROXY_HOME', () => {
  it('creates the home and the folder with mode 0700 whatever the umask', () => {
    const old = process.umask(0);
    try {
      ensurePrivateFolder(home, folder);
    } finally {
      process.umask(old);
    }
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(lstatSync(folder).mode & 0o777).toBe(0o700);
    ensurePrivateFolder(home, folder);
  });

  it.each([
    ['open to group or others', () => chmodSync(folder, 0o755), /its mode is 0755/],
    ['owned by another user', () => chownSync(folder, 65534, 65534), /owned by uid 65534/],
  ])('refuses a folder %s', (_name, spoil, why) => {
    ensurePrivateFolder(home, folder);
    spoil();
    expect(() => ensurePrivateFolder(home, folder)).toThrow(LifecycleError);
    expect(() => ensurePrivateFolder(home, folder)).toThrow(unsafe(why));
  });

  it('refuses a symbolic link to a folder, and a file, where the folder should be', () => {
    mkdirSync(home, { mode: 0o700 });
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    symlinkSync(elsewhere, folder);
    expect(() => ensurePrivateFolder(home, folder)).toThrow(unsafe(/is a symbolic link/));
    rmSync(folder);
    writeFileSync(folder, '');
    expect(() => ensurePrivateFolder(home, folder)).toThrow(unsafe(/is not a folder/));
  });

  it('refuses a home others can write to, or owned by another user', () => {
    mkdirSync(home);
    chmodSync(home, 0o777);
    expect(() => ensurePrivateFolder(home, folder)).toThrow(
      unsafe(/its mode is 0777, so others can replace/),
    );
    chmodSync(home, 0o700);
    chownSync(home, 65534, 65534);
    expect(() => ensurePrivateFolder(home, folder)).toThrow(unsafe(/owned by uid 65534/));
  });
});

describe('new private files', () => {
  it('are created with mode 0600 whatever the umask', () => {
    ensurePrivateFolder(home, folder);
    const path = join(folder, 'shot.png');
    const old = process.umask(0);
    try {
      writeNewPrivateFile(path, Buffer.from('image'));
    } finally {
      process.umask(old);
    }
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).toBe('image');
  });

  it('never write through a symbolic link planted at the name, nor into a file already there', () => {
    ensurePrivateFolder(home, folder);
    const victim = join(root, 'victim');
    writeFileSync(victim, 'keep me');
    const planted = join(folder, 'shot.png');
    symlinkSync(victim, planted);
    expect(() => writeNewPrivateFile(planted, Buffer.from('image'))).toThrow(
      unsafe(/something is already there/),
    );
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
    expect(lstatSync(planted).isSymbolicLink()).toBe(true);

    const existing = join(folder, 'old.png');
    writeFileSync(existing, 'theirs');
    expect(() => writeNewPrivateFile(existing, Buffer.from('image'))).toThrow(unsafe(/already there/));
    expect(readFileSync(existing, 'utf8')).toBe('theirs');
    expect(readdirSync(folder).sort()).toEqual(['old.png', 'shot.png']);
  });
});
