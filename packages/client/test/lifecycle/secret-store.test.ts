/**
 * The secret store: values sealed with AES-256-GCM under a key kept in the OS keychain or a 0600 file,
 * names and origins bound in, tampering detected, unsafe files refused, and the keychain passed over
 * cleanly when it is absent or no keyring answers.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  addSecret,
  listSecrets,
  readSecret,
  removeSecret,
  secretKeyPlace,
  secretPaths,
  secretToolKeychain,
  SecretStoreError,
  type ToolRunner,
} from '../../src/lifecycle';

const VALUE = 'correct horse battery staple';
const ORIGIN = 'https://bank.example';
let homes: string[] = [];
const home = () => {
  const dir = mkdtempSync(join(tmpdir(), 'bproxy-secrets-'));
  homes.push(dir);
  return join(dir, 'home');
};
afterEach(() => {
  homes = [];
});

/** A keyring on standard input/output, as secret-tool is: `store` reads the key, `lookup` prints it. */
function fakeSecretTool(behaviour: 'works' | 'absent' | 'locked'): {
  run: ToolRunner;
  calls: string[][];
  kept: Map<string, string>;
} {
  const kept = new Map<string, string>();
  const calls: string[][] = [];
  const run: ToolRunner = (command, args, input) => {
    calls.push([command, ...args]);
    if (behaviour === 'absent') return null;
    if (behaviour === 'locked') return { status: 1, stdout: '' };
    const at = args.slice(-4).join(' ');
    if (args[0] === 'store') {
      kept.set(at, input);
      return { status: 0, stdout: '' };
    }
    const key = kept.get(at);
    return key === undefined ? { status: 1, stdout: '' } : { status: 0, stdout: `${key}\n` };
  };
  return { run, calls, kept };
}

describe('the secret store', () => {
  it('seals each value with AES-256-GCM in a 0600 file, opens it again, and lists names and origins only', () => {
    const h = home();
    expect(addSecret(h, 'bank', ORIGIN, VALUE, { keyStore: null })).toEqual({ place: 'file', tried: null });
    const paths = secretPaths(h);
    const stored = readFileSync(paths.store, 'utf8');
    expect(stored).not.toContain(VALUE);
    expect(stored).not.toContain(Buffer.from(VALUE).toString('base64'));
    expect(statSync(paths.store).mode & 0o777).toBe(0o600);
    expect(statSync(paths.keyFile).mode & 0o777).toBe(0o600);
    expect(readSecret(h, 'bank', { keyStore: null })).toEqual({ origin: ORIGIN, value: VALUE });
    const listed = listSecrets(h);
    expect(listed).toEqual([{ name: 'bank', origin: ORIGIN, added: expect.any(String) as string }]);
    expect(JSON.stringify(listed)).not.toContain(VALUE);
    expect(secretKeyPlace(h)).toEqual({ place: 'file', count: 1 });
    expect(readSecret(h, 'other', { keyStore: null })).toBeNull();
    expect(removeSecret(h, 'bank')).toBe(true);
    expect(removeSecret(h, 'bank')).toBe(false);
    expect(readSecret(h, 'bank', { keyStore: null })).toBeNull();
  });

  it('detects tampering: a changed ciphertext, an origin edited in the file, a value moved to another name', () => {
    const h = home();
    addSecret(h, 'bank', ORIGIN, VALUE, { keyStore: null });
    addSecret(h, 'mail', 'https://mail.example', 'another-value', { keyStore: null });
    const paths = secretPaths(h);
    const original = readFileSync(paths.store, 'utf8');
    const edit = (change: (store: { secrets: Record<string, Record<string, string>> }) => void) => {
      const store = JSON.parse(original) as { secrets: Record<string, Record<string, string>> };
      change(store);
      writeFileSync(paths.store, JSON.stringify(store), { mode: 0o600 });
    };
    const damaged = (name: string) => {
      try {
        readSecret(h, name, { keyStore: null });
      } catch (error) {
        return error instanceof SecretStoreError ? error.kind : 'other';
      }
      return 'opened';
    };
    edit((s) => {
      const sealed = s.secrets.bank;
      if (sealed?.data)
        sealed.data = Buffer.from(
          Buffer.from(sealed.data, 'base64').map((b, i) => (i === 0 ? b ^ 1 : b)),
        ).toString('base64');
    });
    expect(damaged('bank')).toBe('damaged');
    edit((s) => {
      if (s.secrets.bank) s.secrets.bank.origin = 'https://bank.example.evil.test';
    });
    expect(damaged('bank')).toBe('damaged');
    edit((s) => {
      if (s.secrets.mail) s.secrets.bank = { ...s.secrets.mail };
    });
    expect(damaged('bank')).toBe('damaged');
    writeFileSync(paths.store, original, { mode: 0o600 });
    expect(damaged('bank')).toBe('opened');
    // Another key (a key file replaced) opens nothing.
    writeFileSync(paths.keyFile, `${Buffer.alloc(32, 7).toString('base64')}\n`, { mode: 0o600 });
    expect(damaged('bank')).toBe('damaged');
  });

  it('refuses a store or key file open to others, or a symbolic link, as the token files are', () => {
    const h = home();
    addSecret(h, 'bank', ORIGIN, VALUE, { keyStore: null });
    const paths = secretPaths(h);
    chmodSync(paths.store, 0o644);
    expect(() => readSecret(h, 'bank', { keyStore: null })).toThrow(/group and others must have no access/);
    expect(() => listSecrets(h)).toThrow(SecretStoreError);
    chmodSync(paths.store, 0o600);
    chmodSync(paths.keyFile, 0o640);
    expect(() => readSecret(h, 'bank', { keyStore: null })).toThrow(/secrets\.key.*group and others/);
    chmodSync(paths.keyFile, 0o600);
    const elsewhere = join(h, '..', 'planted.json');
    writeFileSync(elsewhere, readFileSync(paths.store), { mode: 0o600 });
    const other = home();
    addSecret(other, 'x', ORIGIN, VALUE, { keyStore: null });
    const { store } = secretPaths(other);
    rmSync(store);
    symlinkSync(elsewhere, store);
    expect(() => listSecrets(other)).toThrow(/symbolic link/);
  });

  it('keeps the key in the keyring when secret-tool stores and gives it back, on stdin and stdout only', () => {
    const h = home();
    const tool = fakeSecretTool('works');
    const keyStore = secretToolKeychain(h, tool.run);
    expect(addSecret(h, 'bank', ORIGIN, VALUE, { keyStore })).toEqual({ place: 'secret-tool', tried: null });
    expect(() => statSync(secretPaths(h).keyFile)).toThrow();
    expect(readSecret(h, 'bank', { keyStore })).toEqual({ origin: ORIGIN, value: VALUE });
    // The key went in on stdin; neither it nor the value is ever an argument of the tool.
    const [key] = [...tool.kept.values()];
    expect(key).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    const argv = tool.calls.flat().join(' ');
    expect(argv).toContain('lookup');
    expect(argv).not.toContain(key);
    expect(argv).not.toContain(VALUE);
    // Without the keyring (another machine, a locked one), the store says why it cannot open.
    expect(() =>
      readSecret(h, 'bank', { keyStore: secretToolKeychain(h, fakeSecretTool('locked').run) }),
    ).toThrow(/could not be read from secret-tool/);
  });

  it('falls back to the 0600 key file when secret-tool is absent or no keyring answers, and says why', () => {
    for (const behaviour of ['absent', 'locked'] as const) {
      const h = home();
      const keyStore = secretToolKeychain(h, fakeSecretTool(behaviour).run);
      const added = addSecret(h, 'bank', ORIGIN, VALUE, { keyStore });
      expect(added.place).toBe('file');
      expect(added.tried).toMatch(/secret-tool did not answer/);
      expect(statSync(secretPaths(h).keyFile).mode & 0o777).toBe(0o600);
      expect(readSecret(h, 'bank', { keyStore })).toEqual({ origin: ORIGIN, value: VALUE });
    }
  });

  it('falls back on this machine as it is: the real secret-tool absent or without a keyring', () => {
    const h = home();
    const added = addSecret(h, 'bank', ORIGIN, VALUE, { keyStore: secretToolKeychain(h) });
    // Where a keyring answers this test still passes: the key is then there, and the value opens.
    expect(['file', 'secret-tool']).toContain(added.place);
    expect(readSecret(h, 'bank', { keyStore: secretToolKeychain(h) })?.value).toBe(VALUE);
  });
});
