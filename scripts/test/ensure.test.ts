/**
 * The quickstart's and setup's helpers on each platform, injected: the browsers looked for are
 * packages/cdp's standard places (one list kept equal to the other), and npm is run through a shell
 * on Windows, where it is npm.cmd.
 */
import { describe, expect, it } from 'vitest';
import { chromeCandidates } from '../../packages/cdp/src/browser/find-chrome';
import { browserCandidates, findBrowser, npmCommand } from '../ensure.mjs';

describe('scripts/ensure.mjs', () => {
  const envs: Record<string, NodeJS.ProcessEnv> = {
    linux: {},
    darwin: { HOME: '/Users/u' },
    win32: { LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local', PROGRAMFILES: 'C:\\Program Files' },
  };

  it('looks for browsers where packages/cdp does, on every platform', () => {
    for (const [platform, env] of Object.entries(envs))
      expect(browserCandidates(platform as NodeJS.Platform, env), platform).toEqual(
        chromeCandidates(platform as NodeJS.Platform, env),
      );
    expect(chromeCandidates('win32', {})).toEqual(browserCandidates('win32', {}));
  });

  it('finds Edge on Windows and Brave on macOS, CHROME_PATH first', () => {
    const edge = 'C:\\Program Files\\Microsoft\\Edge\\Application\\msedge.exe';
    expect(findBrowser('win32', envs.win32, (p) => p === edge)).toBe(edge);
    const brave = '/Applications/Brave Browser.app/Contents/MacOS/Brave Browser';
    expect(findBrowser('darwin', envs.darwin, (p) => p === brave)).toBe(brave);
    expect(findBrowser('darwin', { ...envs.darwin, CHROME_PATH: '/x/chrome' }, () => true)).toBe('/x/chrome');
    expect(findBrowser('linux', {}, () => false)).toBeUndefined();
  });

  it('runs npm as npm.cmd through a shell on Windows only', () => {
    expect(npmCommand('win32')).toEqual({ command: 'npm.cmd', shell: true });
    expect(npmCommand('darwin')).toEqual({ command: 'npm', shell: false });
    expect(npmCommand('linux')).toEqual({ command: 'npm', shell: false });
  });
});
