/**
 * The bproxy-bridge launcher Windows can run: the build writes bproxy-bridge.cmd beside the
 * extensionless script, running that script with node, and `--print-path` names the .cmd on Windows
 * (the platform injected) and the script elsewhere. The built script itself runs here.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BRIDGE_CMD, build } from '../../build.mjs';
import { bridgeExecutableName } from '../../src/commands/bridge';

const outdir = mkdtempSync(join(tmpdir(), 'bproxy-bridge-launcher-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

describe('the bproxy-bridge launcher', () => {
  it('is a .cmd on Windows and the script elsewhere', () => {
    expect(bridgeExecutableName('win32')).toBe('bproxy-bridge.cmd');
    expect(bridgeExecutableName('darwin')).toBe('bproxy-bridge');
    expect(bridgeExecutableName('linux')).toBe('bproxy-bridge');
  });

  it('is built beside the script, running it with node from its own folder', async () => {
    const built = await build({ outdir });
    expect(readFileSync(join(dirname(built.bridge), 'bproxy-bridge.cmd'), 'utf8')).toBe(BRIDGE_CMD);
    expect(BRIDGE_CMD).toBe('@node "%~dp0bproxy-bridge" %*\r\n');
    // Here (not Windows) --print-path names the script itself.
    const printed = execFileSync(process.execPath, [built.cli, 'bridge', '--print-path'], {
      encoding: 'utf8',
    });
    expect(printed.trim()).toBe(built.bridge);
  }, 60_000);
});
