import { describe, expect, it } from 'vitest';
import { stopLaunchedHeadless } from '../../src/lifecycle/stop-launched';
import { fakeHost } from '../helpers/fake-host';

const CHROME = '/usr/lib/chromium/chromium';
const identity = { pid: 50, userDataDir: '/p/work', executablePath: CHROME };

describe('stopping a browser the bridge launched headless', () => {
  it('stops it when the pid is still that browser', async () => {
    const host = fakeHost();
    host.processes.push({
      pid: 50,
      args: [CHROME, '--headless', '--user-data-dir=/p/work'],
      executablePath: CHROME,
    });
    expect(await stopLaunchedHeadless(host, identity)).toBe('stopped');
    expect(host.stopped).toEqual([50]);
  });

  it('stops it when a launcher script it was started through execed the browser binary', async () => {
    const host = fakeHost();
    host.processes.push({
      pid: 50,
      args: [CHROME, '--headless', '--user-data-dir=/p/work'],
      executablePath: CHROME,
    });
    expect(await stopLaunchedHeadless(host, { ...identity, executablePath: '/usr/bin/chromium' })).toBe(
      'stopped',
    );
  });

  it.each([
    ['a headed browser', [CHROME, '--user-data-dir=/p/work'], CHROME, 'its command line has no --headless'],
    ['another profile', [CHROME, '--headless', '--user-data-dir=/p/else'], CHROME, 'it runs another profile'],
    [
      'another program that took the pid',
      ['/usr/bin/vim', '--headless', '--user-data-dir=/p/work'],
      '/usr/bin/vim',
      'it runs another executable',
    ],
  ])('leaves %s alone', async (_case, args, executablePath, refused) => {
    const host = fakeHost();
    host.processes.push({ pid: 50, args, executablePath });
    expect(await stopLaunchedHeadless(host, identity)).toEqual({ refused });
    expect(host.stopped).toEqual([]);
  });

  it('does nothing when it is gone already', async () => {
    const host = fakeHost();
    expect(await stopLaunchedHeadless(host, identity)).toBe('already-gone');
  });
});
