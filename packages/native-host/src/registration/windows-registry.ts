/**
 * The Windows registry through `reg.exe`, the tool every Windows has: the default value of a key
 * under HKCU read, written and deleted. The runner is passed in, so tests drive these exact command
 * lines against a scripted registry on any system. reg.exe localises the "(Default)" label, so a value
 * is read by its type column, never by that label.
 */
import { execFile } from 'node:child_process';

export interface RegistryResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `reg.exe` with `args`. */
export type RegistryRunner = (args: readonly string[]) => Promise<RegistryResult>;

export const systemRegistry: RegistryRunner = (args) =>
  new Promise((resolve) => {
    execFile('reg.exe', [...args], { windowsHide: true, timeout: 10_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ code, stdout, stderr: stderr || (error?.message ?? '') });
    });
  });

export class RegistryError extends Error {
  override readonly name = 'RegistryError';
}

/** The key's default value, or null when the key (or its default value) does not exist. */
export async function readDefaultValue(run: RegistryRunner, key: string): Promise<string | null> {
  const result = await run(['query', key, '/ve']);
  if (result.code !== 0) return null;
  const line = /^[ \t]+\S.*?[ \t]{2,}REG_(?:EXPAND_)?SZ[ \t]{2,}(.*?)\s*$/m.exec(result.stdout);
  return line?.[1] ?? null;
}

export async function writeDefaultValue(run: RegistryRunner, key: string, value: string): Promise<void> {
  const result = await run(['add', key, '/ve', '/t', 'REG_SZ', '/d', value, '/f']);
  if (result.code !== 0)
    throw new RegistryError(`reg add ${key} failed: ${result.stderr.trim() || `exit ${result.code}`}`);
}

export async function deleteKey(run: RegistryRunner, key: string): Promise<void> {
  const result = await run(['delete', key, '/f']);
  if (result.code !== 0)
    throw new RegistryError(`reg delete ${key} failed: ${result.stderr.trim() || `exit ${result.code}`}`);
}
