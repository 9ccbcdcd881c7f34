import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDevToolsActivePort } from '../src/browser/endpoint';
import { chromeCandidates, findChrome } from '../src/browser/find-chrome';
import { imageSize } from '../src/driver/image-size';
import { RequestLedger } from '../src/driver/ledger';

describe('request ledger', () => {
  it('runs an id once: a replay joins the run or gets the recorded answer', async () => {
    const ledger = new RequestLedger<string>();
    let runs = 0;
    let release = (): void => undefined;
    const execute = () =>
      new Promise<string>((resolve) => {
        runs++;
        release = () => resolve(`answer ${runs}`);
      });
    const first = ledger.run('a', execute);
    const joined = ledger.run('a', execute);
    release();
    expect(await first).toBe('answer 1');
    expect(await joined).toBe('answer 1');
    expect(await ledger.run('a', execute)).toBe('answer 1');
    expect(runs).toBe(1);
  });

  it('forgets finished ids after their time to live, never running ones', async () => {
    let now = 0;
    const ledger = new RequestLedger<string>(1000, 100, () => now);
    await ledger.run('done', async () => 'x');
    void ledger.run('running', () => new Promise<string>(() => undefined));
    now = 1000;
    await ledger.run('new', async () => 'y');
    expect(ledger.has('done')).toBe(false);
    expect(ledger.has('running')).toBe(true);
  });
});

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

describe('image size', () => {
  it('reads PNG and JPEG dimensions from their headers', () => {
    const png = Buffer.alloc(24);
    png.writeUInt32BE(0x89504e47, 0);
    png.writeUInt32BE(800, 16);
    png.writeUInt32BE(600, 20);
    expect(imageSize(png)).toEqual({ width: 800, height: 600 });
    // SOI, an APP0 segment of 4 bytes, then SOF0 with height 30 and width 40.
    const jpeg = Buffer.from([
      0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x1e, 0x00, 0x28,
      0x03,
    ]);
    expect(imageSize(jpeg)).toEqual({ width: 40, height: 30 });
    expect(imageSize(Buffer.from('nope'))).toBeUndefined();
  });
});
