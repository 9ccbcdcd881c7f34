import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULT_PORT } from '@bproxy/protocol';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_IDLE_EXIT_MS,
  loadConfig,
  parseIdleExit,
  parseLogLevel,
  parsePort,
  resolveHome,
} from '../../src/lifecycle/config';
import { browserArgs, findStatusFd, parseDaemonArgs } from '../../src/lifecycle/daemon-args';
import { parseDuration } from '../../src/lifecycle/duration';
import { LifecycleError } from '../../src/lifecycle/errors';

describe('daemon configuration from the environment', () => {
  it('defaults to ~/.bproxy, port 9615, level info, and a 15 min idle exit', () => {
    expect(loadConfig({})).toEqual({
      home: join(homedir(), '.bproxy'),
      port: DEFAULT_PORT,
      logLevel: 'info',
      idleExitMs: 15 * 60_000,
      debuggerIdleMs: 10_000,
    });
    expect(DEFAULT_IDLE_EXIT_MS).toBe(15 * 60_000);
  });

  it('reads the idle exit as a period with its unit, or off', () => {
    expect(parseIdleExit('90s')).toBe(90_000);
    expect(parseIdleExit('off')).toBeNull();
    expect(() => loadConfig({ BPROXY_IDLE_EXIT: '600' })).toThrow(
      'BPROXY_IDLE_EXIT must be a period like 500ms, 30s, 5m or 2h (at most 168h), or off; got "600"',
    );
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

  it('refuses BPROXY_EXTENSION_ID, which is no longer read, naming the command that replaces it', () => {
    expect(() => loadConfig({ BPROXY_EXTENSION_ID: 'a'.repeat(32) })).toThrow(
      'BPROXY_EXTENSION_ID is no longer read: trust an extension id with `bproxy host install --extension-id ID`',
    );
  });
});

describe('periods', () => {
  it.each([
    ['250ms', 250],
    ['30s', 30_000],
    ['5m', 300_000],
    ['2h', 7_200_000],
    ['168h', 604_800_000],
  ])('reads %s as %i ms', (raw, ms) => {
    expect(parseDuration('X', raw)).toBe(ms);
  });

  it.each(['300', '0s', '5 m', '1.5h', '-1s', '5M', '169h', '1d', ''])('refuses %j', (raw) => {
    expect(() => parseDuration('BPROXY_BROWSER_IDLE', raw)).toThrow(LifecycleError);
    expect(() => parseDuration('BPROXY_BROWSER_IDLE', raw)).toThrow(`BPROXY_BROWSER_IDLE must be a period`);
  });
});

describe('daemon arguments', () => {
  it('parses the status fd and the browser options', () => {
    expect(parseDaemonArgs(['--status-fd', '3', '--browser', 'none', '--attach', '9222'])).toEqual({
      statusFd: 3,
      implicit: false,
      browser: 'none',
      attach: '9222',
      cdpUrl: null,
      cdpMode: null,
      cdpMaxBrowsers: null,
      browserIdle: null,
      allowFileUrls: null,
      allowFiles: [],
      profile: null,
    });
  });

  it('says how it was started and how a remote endpoint is used, and passes the browser options on as given', () => {
    const argv = [
      '--implicit',
      '--cdp-url',
      'ws://farm:3000/',
      '--cdp-mode',
      'per-session',
      '--cdp-max-browsers',
      '3',
      '--browser-idle',
      '2m',
    ];
    const args = parseDaemonArgs(argv);
    expect(args).toMatchObject({
      implicit: true,
      cdpUrl: 'ws://farm:3000/',
      cdpMode: 'per-session',
      cdpMaxBrowsers: 3,
      browserIdle: '2m',
      allowFileUrls: null,
      allowFiles: [],
    });
    expect(['--implicit', ...browserArgs(args)]).toEqual(argv);
  });

  it('takes --profile NAME and passes it on, and refuses a name with path characters', () => {
    const args = parseDaemonArgs(['--browser', 'headless', '--profile', 'shop_2']);
    expect(args.profile).toBe('shop_2');
    expect(browserArgs(args)).toEqual(['--browser', 'headless', '--profile', 'shop_2']);
    for (const bad of ['../x', 'a/b', 'a\\b', '.', '..', '', 'bproxy-chromium-abc', 'x'.repeat(65)])
      expect(() => parseDaemonArgs(['--profile', bad]), bad).toThrow(/--profile must be a plain name/);
  });

  it('takes --allow-file-urls as a flag and passes it on', () => {
    const args = parseDaemonArgs(['--browser', 'headless', '--allow-file-urls']);
    expect(args.allowFileUrls).toBe(true);
    expect(browserArgs(args)).toEqual(['--browser', 'headless', '--allow-file-urls']);
    expect(browserArgs(parseDaemonArgs([]))).toEqual([]);
  });

  it('refuses a cap that is not a whole number from 1 to 1000, and an unknown mode or period', () => {
    for (const bad of ['0', '1001', '2.5', 'ten'])
      expect(() => parseDaemonArgs(['--cdp-max-browsers', bad])).toThrow(
        `--cdp-max-browsers must be a whole number from 1 to 1000, got "${bad}"`,
      );
    expect(() => parseDaemonArgs(['--cdp-mode', 'pooled'])).toThrow(
      '--cdp-mode must be shared or per-session, got "pooled"',
    );
    expect(() => parseDaemonArgs(['--browser-idle', '5'])).toThrow('--browser-idle must be a period');
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
