import { describe, expect, it } from 'vitest';
import { BridgeConfigError, readBridgeConfig } from '../src/config';

describe('bridge configuration from the environment', () => {
  it('defaults to this machine, or to Windows Chrome inside WSL', () => {
    const local = readBridgeConfig({ BPROXY_HOME: '/h' }, false);
    expect(local).toMatchObject({
      downstream: 'local',
      executablePath: undefined,
      home: '/h',
      queueTimeoutMs: 30_000,
      token: undefined,
    });
    const wsl = readBridgeConfig({ BPROXY_HOME: '/h' }, true);
    expect(wsl).toMatchObject({
      downstream: 'wsl',
      executablePath: 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
      powershell: 'powershell.exe',
      wslHost: '127.0.0.1',
    });
  });

  it('takes a CDP URL as choosing a remote browser', () => {
    expect(readBridgeConfig({ BPROXY_BRIDGE_CDP_URL: 'wss://farm.example/cdp?token=x' }, true)).toMatchObject(
      {
        downstream: 'remote',
        cdpUrl: 'wss://farm.example/cdp?token=x',
      },
    );
    expect(() => readBridgeConfig({ BPROXY_BRIDGE_BROWSER: 'remote' }, false)).toThrow(
      'BPROXY_BRIDGE_BROWSER=remote needs BPROXY_BRIDGE_CDP_URL',
    );
  });

  it.each([
    [
      { BPROXY_BRIDGE_BROWSER: 'windows' },
      'BPROXY_BRIDGE_BROWSER must be local, wsl or remote, got "windows"',
    ],
    [{ BPROXY_BRIDGE_HEADLESS: 'yes' }, 'BPROXY_BRIDGE_HEADLESS must be true or false'],
    [
      { BPROXY_BRIDGE_QUEUE_TIMEOUT_MS: '5s' },
      'BPROXY_BRIDGE_QUEUE_TIMEOUT_MS must be a number of milliseconds',
    ],
    [
      { BPROXY_BRIDGE_CDP_URL: 'ftp://x' },
      'BPROXY_BRIDGE_CDP_URL must be a ws://, wss://, http:// or https:// URL, got ftp:',
    ],
    [{ BPROXY_LOG_LEVEL: 'loud' }, 'BPROXY_LOG_LEVEL must be one of'],
  ])('refuses %o naming the variable', (env, message) => {
    expect(() => readBridgeConfig(env, false)).toThrow(BridgeConfigError);
    expect(() => readBridgeConfig(env, false)).toThrow(message);
  });

  it('refuses a short or oddly shaped endpoint token without echoing it', () => {
    for (const token of ['short', 'has space'.padEnd(40, 'x'), 'é'.repeat(40), 'a'.repeat(257)]) {
      let error: unknown;
      try {
        readBridgeConfig({ BPROXY_BRIDGE_TOKEN: token }, false);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(BridgeConfigError);
      expect((error as Error).message).not.toContain(token);
    }
    expect(readBridgeConfig({ BPROXY_BRIDGE_TOKEN: 'a'.repeat(32) }, false).token).toBe('a'.repeat(32));
  });

  it('lets the headless override go both ways', () => {
    expect(readBridgeConfig({ BPROXY_BRIDGE_HEADLESS: 'false' }, false).headless).toBe(false);
    expect(readBridgeConfig({ BPROXY_BRIDGE_HEADLESS: '1' }, false).headless).toBe(true);
  });
});
