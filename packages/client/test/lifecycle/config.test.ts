import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULT_EXTENSION_ID, DEFAULT_PORT } from '@bproxy/protocol';
import { describe, expect, it } from 'vitest';
import {
  loadConfig,
  parseExtensionId,
  parseLogLevel,
  parsePort,
  resolveHome,
} from '../../src/lifecycle/config';
import { findStatusFd, parseDaemonArgs } from '../../src/lifecycle/daemon-args';
import { LifecycleError } from '../../src/lifecycle/errors';

describe('daemon configuration from the environment', () => {
  it('defaults to ~/.bproxy, port 9615, level info and the published extension id', () => {
    expect(loadConfig({})).toEqual({
      home: join(homedir(), '.bproxy'),
      port: DEFAULT_PORT,
      logLevel: 'info',
      extensionId: DEFAULT_EXTENSION_ID,
    });
  });

  it('resolves a relative BPROXY_HOME to an absolute path', () => {
    expect(resolveHome({ BPROXY_HOME: 'state' })).toBe(resolve('state'));
    expect(resolveHome({ BPROXY_HOME: '/srv/bp' })).toBe('/srv/bp');
  });

  it('accepts 0 as "any free port" and every port up to 65535', () => {
    expect(parsePort('0')).toBe(0);
    expect(parsePort('65535')).toBe(65535);
  });

  it.each(['-1', '65536', '80.0', ' 80', '0x50', '1e3', 'http'])(
    'refuses BPROXY_PORT=%j instead of coercing it',
    (raw) => {
      expect(() => parsePort(raw)).toThrow(LifecycleError);
      expect(() => parsePort(raw)).toThrow(`got "${raw}"`);
    },
  );

  it('accepts exactly the pino level names', () => {
    expect(parseLogLevel('silent')).toBe('silent');
    expect(() => parseLogLevel('INFO')).toThrow('BPROXY_LOG_LEVEL must be one of');
  });

  it('accepts only 32-letter a-p extension ids', () => {
    expect(parseExtensionId('a'.repeat(32))).toBe('a'.repeat(32));
    expect(() => parseExtensionId('q'.repeat(32))).toThrow('32 letters a-p');
    expect(() => parseExtensionId('a'.repeat(31))).toThrow('32 letters a-p');
  });
});

describe('daemon arguments', () => {
  it('parses the status fd and the browser options', () => {
    expect(parseDaemonArgs(['--status-fd', '3', '--browser', 'none', '--attach', '9222'])).toEqual({
      statusFd: 3,
      browser: 'none',
      attach: '9222',
      cdpUrl: null,
    });
  });

  it('refuses unknown arguments and bad values with a usage line', () => {
    expect(() => parseDaemonArgs(['--token', 'x'])).toThrow('unknown daemon argument "--token"');
    expect(() => parseDaemonArgs(['--browser', 'firefox'])).toThrow(
      '--browser must be headless, headed or none',
    );
    expect(() => parseDaemonArgs(['--status-fd', '1'])).toThrow('--status-fd must be a file descriptor >= 3');
  });

  it('finds the status fd even when another argument is bad, so the error can be reported', () => {
    expect(findStatusFd(['--bogus', '--status-fd', '4'])).toBe(4);
    expect(findStatusFd(['--bogus'])).toBeNull();
  });
});
