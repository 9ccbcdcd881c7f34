/**
 * A scripted Windows registry answering the `reg.exe` command lines registration runs (query /ve,
 * add /ve /t REG_SZ /d … /f, delete /f) with reg.exe's exit codes and output layout, so the Windows
 * registration runs on any system. Keys compare case-insensitively, as the registry's do.
 */
import type { RegistryResult, RegistryRunner } from '../../src/registration/windows-registry';

export class ScriptedRegistry {
  /** Default values by key (as first written). */
  readonly values = new Map<string, string>();
  readonly calls: string[][] = [];

  readonly run: RegistryRunner = (args) => Promise.resolve(this.answer([...args]));

  set(key: string, value: string): void {
    this.values.set(this.find(key) ?? key, value);
  }

  get(key: string): string | undefined {
    const found = this.find(key);
    return found === undefined ? undefined : this.values.get(found);
  }

  private find(key: string): string | undefined {
    return [...this.values.keys()].find((k) => k.toLowerCase() === key.toLowerCase());
  }

  private answer(args: string[]): RegistryResult {
    this.calls.push(args);
    const [verb, key] = args;
    const fail = (stderr: string): RegistryResult => ({ code: 1, stdout: '', stderr });
    if (key === undefined || !key.startsWith('HKCU\\')) return fail('ERROR: Invalid key name.');
    const found = this.find(key);
    if (verb === 'query' && args[2] === '/ve' && args.length === 3) {
      if (found === undefined)
        return fail('ERROR: The system was unable to find the specified registry key or value.');
      return {
        code: 0,
        stdout: `\r\n${found.replace('HKCU', 'HKEY_CURRENT_USER')}\r\n    (Default)    REG_SZ    ${this.values.get(found)}\r\n\r\n`,
        stderr: '',
      };
    }
    if (
      verb === 'add' &&
      args.length === 8 &&
      args[2] === '/ve' &&
      args[3] === '/t' &&
      args[4] === 'REG_SZ' &&
      args[5] === '/d' &&
      args[7] === '/f'
    ) {
      this.values.set(found ?? key, args[6] ?? '');
      return { code: 0, stdout: 'The operation completed successfully.\r\n', stderr: '' };
    }
    if (verb === 'delete' && args[2] === '/f' && args.length === 3) {
      if (found === undefined)
        return fail('ERROR: The system was unable to find the specified registry key or value.');
      this.values.delete(found);
      return { code: 0, stdout: 'The operation completed successfully.\r\n', stderr: '' };
    }
    return fail(`ERROR: Invalid syntax: ${args.join(' ')}`);
  }
}
