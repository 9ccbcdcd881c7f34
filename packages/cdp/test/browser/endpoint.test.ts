import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDevToolsActivePort } from '../../src/browser/endpoint';

describe('DevToolsActivePort', () => {
  it('reads the port and browser path, and explains a missing file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bproxy-dtap-'));
    try {
      await expect(readDevToolsActivePort(dir)).rejects.toThrow(/--remote-debugging-port=0/);
      writeFileSync(join(dir, 'DevToolsActivePort'), '40123\n/devtools/browser/abc-def\n');
      await expect(readDevToolsActivePort(dir)).resolves.toEqual({
        port: 40123,
        path: '/devtools/browser/abc-def',
      });
      writeFileSync(join(dir, 'DevToolsActivePort'), 'junk');
      await expect(readDevToolsActivePort(dir)).rejects.toThrow(/does not hold/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
