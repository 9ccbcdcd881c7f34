/**
 * Where the key of the secret store is kept: the OS keychain where one answers — libsecret through
 * `secret-tool` on Linux, the login Keychain through `security` on macOS, DPAPI through PowerShell on
 * Windows (the key file then holds the key sealed for this Windows user) — else a 0600 file beside the
 * store. The key never goes on a command line: it travels on the tool's standard input and output.
 * A keychain that is absent, locked or does not give back what it was given is passed over for the
 * file, and the store records which place holds its key.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';

export type KeyPlace = 'file' | 'secret-tool' | 'keychain' | 'dpapi';

/** Runs a tool with `input` on its standard input; null when it could not be run or timed out. */
export type ToolRunner = (
  command: string,
  args: readonly string[],
  input: string,
) => { status: number; stdout: string } | null;

export const runTool: ToolRunner = (command, args, input) => {
  const result = spawnSync(command, [...args], {
    input,
    encoding: 'utf8',
    timeout: 20_000,
    windowsHide: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  if (result.error !== undefined || result.status === null) return null;
  return { status: result.status, stdout: result.stdout };
};

/** A keychain that keeps the key itself (secret-tool, security); DPAPI only seals the key file. */
export interface Keychain {
  readonly place: Exclude<KeyPlace, 'file' | 'dpapi'>;
  /** Stores the key (base64); false when the keychain did not take it. */
  store(key: string): boolean;
  /** The key (base64), or null when the keychain has none or does not answer. */
  lookup(): string | null;
}

/** Seals the key for the key file (DPAPI): the file alone then opens nothing for another user. */
export interface KeySealer {
  readonly place: 'dpapi';
  seal(key: string): string | null;
  open(sealed: string): string | null;
}

/** One keychain entry per BPROXY_HOME, named by a hash of its path (no quoting, nothing of the path shown). */
export function homeAccount(home: string): string {
  return `bproxy-${createHash('sha256').update(home).digest('hex').slice(0, 24)}`;
}

const trimmed = (out: string): string | null => {
  const key = out.trim();
  return /^[A-Za-z0-9+/=]{40,64}$/.test(key) ? key : null;
};

export function secretToolKeychain(home: string, run: ToolRunner = runTool): Keychain {
  const attributes = ['service', 'bproxy', 'account', homeAccount(home)];
  return {
    place: 'secret-tool',
    store: (key) =>
      run('secret-tool', ['store', '--label', 'bproxy secret store key', ...attributes], key)?.status === 0,
    lookup: () => {
      const found = run('secret-tool', ['lookup', ...attributes], '');
      return found?.status === 0 ? trimmed(found.stdout) : null;
    },
  };
}

export function macKeychain(home: string, run: ToolRunner = runTool): Keychain {
  const account = homeAccount(home);
  return {
    place: 'keychain',
    // `security -i` reads its command from standard input, so the key is not in any process's argv.
    store: (key) =>
      run('security', ['-i'], `add-generic-password -U -s bproxy -a ${account} -w ${key}\n`)?.status === 0,
    lookup: () => {
      const found = run('security', ['find-generic-password', '-s', 'bproxy', '-a', account, '-w'], '');
      return found?.status === 0 ? trimmed(found.stdout) : null;
    },
  };
}

const DPAPI = (verb: 'Protect' | 'Unprotect') =>
  'Add-Type -AssemblyName System.Security; $b=[Convert]::FromBase64String([Console]::In.ReadToEnd().Trim()); ' +
  `[Convert]::ToBase64String([Security.Cryptography.ProtectedData]::${verb}($b,$null,'CurrentUser'))`;

export function dpapiSealer(run: ToolRunner = runTool): KeySealer {
  const ps = (verb: 'Protect' | 'Unprotect', input: string): string | null => {
    const out = run('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', DPAPI(verb)], input);
    const text = out?.status === 0 ? out.stdout.trim() : '';
    return /^[A-Za-z0-9+/=]{20,4096}$/.test(text) ? text : null;
  };
  return { place: 'dpapi', seal: (key) => ps('Protect', key), open: (sealed) => ps('Unprotect', sealed) };
}

/** This platform's keychain or sealer, or null where there is none to try. */
export function platformKeyStore(
  home: string,
  platform: NodeJS.Platform = process.platform,
  run: ToolRunner = runTool,
): Keychain | KeySealer | null {
  if (platform === 'linux' || platform === 'freebsd' || platform === 'openbsd')
    return secretToolKeychain(home, run);
  if (platform === 'darwin') return macKeychain(home, run);
  if (platform === 'win32') return dpapiSealer(run);
  return null;
}
