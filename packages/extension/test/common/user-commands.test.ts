import { describe, expect, it } from 'vitest';
import {
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
