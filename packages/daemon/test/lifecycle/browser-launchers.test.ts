/**
 * --allow-file-urls / BPROXY_ALLOW_FILE_URLS: off by default, honoured for the browser the daemon
 * launches and no other, refused with a sentence when the daemon launches none.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDaemonArgs } from '@bproxy/client/lifecycle';
import { afterEach, describe, expect, it } from 'vitest';
import { browserChoice, browserLaunchers } from '../../src/lifecycle/browser-launchers';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function launchersOf(argv: string[], env: Record<string, string> = {}) {
  const home = mkdtempSync(join(tmpdir(), 'bproxy-launchers-'));
  homes.push(home);
  return browserLaunchers(browserChoice(parseDaemonArgs(argv), env), home);
}

describe('file: URLs in a browser bproxy launches', () => {
  it('are off by default, for every browser', () => {
    const launchers = launchersOf(['--attach', '9222']);
    expect(launchers.map((l) => [l.name, l.allowFileUrls ?? false])).toEqual([
      ['attached', false],
      ['headless', false],
    ]);
  });

  it('are allowed by --allow-file-urls or BPROXY_ALLOW_FILE_URLS for the launched browser only', () => {
    for (const [argv, env] of [
      [['--allow-file-urls', '--attach', '9222', '--cdp-url', 'ws://farm.test/'], {}],
      [['--attach', '9222', '--cdp-url', 'ws://farm.test/'], { BPROXY_ALLOW_FILE_URLS: '1' }],
    ] as const) {
      const launchers = launchersOf([...argv], env);
      expect(launchers.map((l) => [l.name, l.allowFileUrls ?? false])).toEqual([
        ['remote', false],
        ['attached', false],
        ['headless', true],
      ]);
    }
  });

  it('are refused with a sentence when the daemon launches no browser, or the variable is not a yes or no', () => {
    expect(() => launchersOf(['--browser', 'none', '--allow-file-urls'])).toThrow(
      /--allow-file-urls is for a browser bproxy launches.*your own Chrome \(the extension\) and attached or remote browsers never open file: URLs/,
    );
    expect(() => launchersOf(['--browser', 'none'], { BPROXY_ALLOW_FILE_URLS: 'true' })).toThrow(
      /--allow-file-urls is for a browser bproxy launches/,
    );
    expect(() => launchersOf([], { BPROXY_ALLOW_FILE_URLS: 'please' })).toThrow(
      'BPROXY_ALLOW_FILE_URLS must be 1, true, 0 or false, got "please"',
    );
  });
});
