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

  it('macOS: Chrome, Chromium, Edge and Brave in /Applications, then ~/Applications', () => {
    const found = (present: string[]) =>
      findChrome({ env: { HOME: '/Users/u' }, platform: 'darwin', isExecutable: (p) => present.includes(p) });
    expect(found(['/Users/u/Applications/Brave Browser.app/Contents/MacOS/Brave Browser'])).toBe(
      '/Users/u/Applications/Brave Browser.app/Contents/MacOS/Brave Browser',
    );
    expect(
      found([
        '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
        '/Applications/Brave Browser.app/Contents/MacOS/Brave Browser',
      ]),
    ).toBe('/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge');
    expect(found([])).toBeUndefined();
  });

  it('Windows: the per-user install first, then Program Files, with defaults when variables are missing', () => {
    const env = { LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local', PROGRAMFILES: 'D:\\Apps' };
    const found = (present: string[], e: NodeJS.ProcessEnv = env) =>
      findChrome({ env: e, platform: 'win32', isExecutable: (p) => present.includes(p) });
    expect(
      found([
        'D:\\Apps\\Google\\Chrome\\Application\\chrome.exe',
        'C:\\Users\\u\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe',
      ]),
    ).toBe('C:\\Users\\u\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe');
    expect(found(['C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe'])).toBe(
      'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe',
    );
    expect(found(['D:\\Apps\\BraveSoftware\\Brave-Browser\\Application\\brave.exe'])).toBe(
      'D:\\Apps\\BraveSoftware\\Brave-Browser\\Application\\brave.exe',
    );
    // No variables at all: the default Program Files folders.
    expect(found(['C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe'], {})).toBe(
      'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
    );
    expect(chromeCandidates('win32', { USERPROFILE: 'C:\\Users\\user' })[0]).toBe(
      'C:\\Users\\user\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe',
    );
  });

  it('Linux: Edge and Brave packages too', () => {
    const candidates = chromeCandidates('linux', {});
    for (const path of [
      '/opt/microsoft/msedge/msedge',
      '/usr/bin/brave-browser',
      '/opt/brave.com/brave/brave',
    ])
      expect(candidates).toContain(path);
  });
});
