import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_NETWORK_SETTINGS, readNetworkSettings } from '../../src/observe/network-settings';

const made: string[] = [];
const temp = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'bproxy-netsettings-'));
  made.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the network settings in BPROXY_HOME', () => {
  it('reveals secrets only when the file says so and only the user could have written it', () => {
    const home = temp();
    expect(readNetworkSettings(home)).toEqual(DEFAULT_NETWORK_SETTINGS);
    const file = join(home, 'network.json');
    writeFileSync(file, JSON.stringify({ revealSecrets: true }), {
      mode: 0o600,
    });
    expect(readNetworkSettings(home)).toEqual({ revealSecrets: true });
    chmodSync(file, 0o666);
    const warnings: string[] = [];
    expect(readNetworkSettings(home, (why) => warnings.push(why))).toEqual(DEFAULT_NETWORK_SETTINGS);
    expect(warnings).toEqual(['network.json ignored: group or others may write it']);
    chmodSync(file, 0o600);
    writeFileSync(file, 'not json');
    expect(readNetworkSettings(home)).toEqual(DEFAULT_NETWORK_SETTINGS);
  });
});
