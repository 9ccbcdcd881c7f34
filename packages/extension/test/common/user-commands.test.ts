import { describe, expect, it } from 'vitest';
import {
  cliLine,
  setupCommand,
  trustCommand,
  untrustedDaemonHint,
  untrustedHostHint,
} from '../../src/common/user-commands';

describe('commands the extension asks a person to run', () => {
  it('name the real extension id and the installed bproxy command, never npx or a placeholder', () => {
    const id = 'abcdefghijklmnopabcdefghijklmnop';
    const saved = (globalThis as { chrome?: unknown }).chrome;
    (globalThis as { chrome?: unknown }).chrome = { runtime: { id } };
    try {
      expect(trustCommand()).toBe(`bproxy host install --extension-id ${id}`);
      expect(setupCommand()).toBe(`bproxy setup --extension-id ${id}`);
      for (const hint of [untrustedHostHint(), untrustedDaemonHint()]) {
        expect(hint).toContain(`\`bproxy host install --extension-id ${id}\``);
        expect(hint).not.toMatch(/npx|THIS_ID/);
      }
    } finally {
      (globalThis as { chrome?: unknown }).chrome = saved;
    }
  });
});

describe('the command line handed out for a shared tab', () => {
  it('runs the launcher the native host wrote by its absolute path, quoted for a shell when it must be', () => {
    expect(cliLine('abc', '/opt/ada/.bproxy/host/bin/bproxy')).toBe(
      '/opt/ada/.bproxy/host/bin/bproxy -s abc snapshot',
    );
    expect(cliLine('abc', "/opt/a d'a/.bproxy/host/bin/bproxy")).toBe(
      `'/opt/a d'\\''a/.bproxy/host/bin/bproxy' -s abc snapshot`,
    );
    expect(cliLine('abc', 'C:\\Users\\Ada Lovelace\\.bproxy\\host\\bin\\bproxy.cmd')).toBe(
      '"C:\\Users\\Ada Lovelace\\.bproxy\\host\\bin\\bproxy.cmd" -s abc snapshot',
    );
    expect(cliLine('abc')).toBe('bproxy -s abc snapshot');
  });
});
