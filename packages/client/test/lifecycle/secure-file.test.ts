import {
  chmodSync,
  chownSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LifecycleError } from '../../src/lifecycle/errors';
import { checkStateFile, readStateFile, writeStateFileAtomic } from '../../src/lifecycle/secure-file';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bproxy-secure-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('atomic state-file writes', () => {
  it('creates the file with mode 0600 whatever the umask, and leaves no temporary file', () => {
    const old = process.umask(0);
    try {
      writeStateFileAtomic(join(dir, 'token'), 'secret\n');
    } finally {
      process.umask(old);
    }
    expect(statSync(join(dir, 'token')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'token'), 'utf8')).toBe('secret\n');
    expect(readdirSync(dir)).toEqual(['token']);
  });

  it('replaces an existing file (and its looser mode) instead of writing into it', () => {
    const path = join(dir, 'port');
    writeFileSync(path, 'old', { mode: 0o644 });
    const before = statSync(path).ino;
    writeStateFileAtomic(path, '1234\n');
    expect(statSync(path).ino).not.toBe(before);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readStateFile(path)).toBe('1234\n');
  });

  it('replaces a symlink itself, never the file it points to', () => {
    const victim = join(dir, 'victim');
    writeFileSync(victim, 'keep', { mode: 0o600 });
    symlinkSync(victim, join(dir, 'token'));
    writeStateFileAtomic(join(dir, 'token'), 'new');
    expect(readFileSync(victim, 'utf8')).toBe('keep');
  });
});

describe('state-file reads fail closed', () => {
  it('returns null for a missing file', () => {
    expect(readStateFile(join(dir, 'nope'))).toBeNull();
    expect(checkStateFile(join(dir, 'nope'))).toBe(false);
  });

  it('refuses a symbolic link even to a safe file', () => {
    writeFileSync(join(dir, 'real'), 'x', { mode: 0o600 });
    symlinkSync(join(dir, 'real'), join(dir, 'token'));
    expect(() => readStateFile(join(dir, 'token'))).toThrow(/it is a symbolic link/);
  });

  it.each([0o640, 0o604, 0o660, 0o602])('refuses mode %o: group and others must have no access', (mode) => {
    const path = join(dir, 'token');
    writeFileSync(path, 'x', { mode: 0o600 });
    chmodSync(path, mode);
    expect(() => readStateFile(path)).toThrow(LifecycleError);
    expect(() => checkStateFile(path)).toThrow(
      /but group and others must have no access \(fix with: chmod 600/,
    );
  });

  it('accepts owner-only modes', () => {
    const path = join(dir, 'token');
    writeFileSync(path, 'x', { mode: 0o600 });
    chmodSync(path, 0o400);
    expect(readStateFile(path)).toBe('x');
  });

  it('refuses a file owned by another user', () => {
    const path = join(dir, 'token');
    writeFileSync(path, 'x', { mode: 0o600 });
    chownSync(path, 65534, 65534);
    expect(() => readStateFile(path)).toThrow(/owned by uid 65534, not by you/);
  });

  it('refuses a directory where a file should be', () => {
    expect(() => readStateFile(dir)).toThrow(/not a regular file/);
  });
});
