import { describe, expect, it } from 'vitest';
import { chromeCandidates, findChrome } from '../../src/browser/find-chrome';

describe('finding a browser', () => {
  it('prefers CHROME_PATH, then Debian’s real binary over its wrapper', () => {
    const present = new Set(['/opt/custom/chrome', '/usr/lib/chromium/chromium', '/usr/bin/chromium']);
    const isExecutable = (p: string) => present.has(p);
    expect(findChrome({ env: { CHROME_PATH: '/opt/custom/chrome' }, platform: 'linux', isExecutable })).toBe(
      '/opt/custom/chrome',
    );
    expect(findChrome({ env: {}, platform: 'linux', isExecutable })).toBe('/usr/lib/chromium/chromium');
    expect(findChrome({ env: { CHROME_PATH: '/missing' }, platform: 'linux', isExecutable })).toBe(
      '/usr/lib/chromium/chromium',
    );
    expect(findChrome({ env: {}, platform: 'linux', isExecutable: () => false })).toBeUndefined();
  });

  it('knows the usual places on macOS and Windows', () => {
    expect(chromeCandidates('darwin', { HOME: '/Users/u' })).toContain(
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    );
    expect(chromeCandidates('win32', { PROGRAMFILES: 'C:\\Program Files' })).toContain(
      'C:\\Program Files\\Microsoft\\Edge\\Application\\msedge.exe',
    );
  });
});
