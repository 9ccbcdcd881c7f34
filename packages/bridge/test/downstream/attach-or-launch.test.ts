import { describe, expect, it } from 'vitest';
import {
  AcquireError,
  attachOrLaunch,
  launchArgs,
  type ProfileTarget,
} from '../../src/downstream/attach-or-launch';
import { fakeHost, type FakeHost } from '../helpers/fake-host';

const CHROME = '/opt/google/chrome/chrome';

function target(host: FakeHost, extra: Partial<ProfileTarget> = {}): ProfileTarget {
  return {
    host,
    executablePath: CHROME,
    userDataDir: '/p/work',
    headless: true,
    forwardedArgs: [],
    timeoutMs: 2_000,
    ...extra,
  };
}

async function refusal(promise: Promise<unknown>): Promise<AcquireError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AcquireError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('attach or launch by profile', () => {
  it("refuses Chrome's default profile before touching anything, and says why and what to do", async () => {
    const host = fakeHost(['/home/u/.config/google-chrome']);
    const error = await refusal(
      attachOrLaunch(target(host, { userDataDir: '/home/u/.config/google-chrome/' })),
    );
    expect(error.reason).toBe('default-profile');
    expect(error.message).toContain(
      'Chrome 136 and later ignore --remote-debugging-port on the default profile',
    );
    expect(error.message).toContain('BPROXY_BRIDGE_USER_DATA_DIR');
    expect(host.launches).toEqual([]);
  });

  it('refuses a running browser of the profile in the other headless mode', async () => {
    const host = fakeHost();
    host.processes.push({
      pid: 7,
      args: [CHROME, '--user-data-dir=/p/work', '--remote-debugging-port=9222'],
      executablePath: CHROME,
    });
    const error = await refusal(attachOrLaunch(target(host, { headless: true })));
    expect(error.reason).toBe('mode-mismatch');
    expect(error.message).toContain('open in a headed browser (pid 7) but a headless one was asked for');
    expect(error.message).toContain('BPROXY_BRIDGE_HEADLESS=false');
    expect(host.launches).toEqual([]);
  });

  it('refuses a running browser of the profile that has no DevTools port, since a second one cannot start', async () => {
    const host = fakeHost();
    host.processes.push({
      pid: 7,
      args: [CHROME, '--headless', '--user-data-dir=/p/work'],
      executablePath: CHROME,
    });
    const error = await refusal(attachOrLaunch(target(host)));
    expect(error.reason).toBe('profile-busy');
    expect(error.message).toContain('started without --remote-debugging-port');
  });

  it('ignores browsers of other profiles and renderer processes, and launches', async () => {
    const host = fakeHost();
    host.processes.push({
      pid: 7,
      args: [CHROME, '--user-data-dir=/p/other', '--remote-debugging-port=9222'],
      executablePath: CHROME,
    });
    host.nextLaunch = () => ({
      pid: 99,
      listening: Promise.resolve({ url: 'ws://127.0.0.1:4567/devtools/browser/abc' }),
      exited: new Promise(() => undefined),
    });
    const browser = await attachOrLaunch(target(host));
    expect(browser).toEqual({
      wsUrl: 'ws://127.0.0.1:4567/devtools/browser/abc',
      ownership: 'launched',
      pid: 99,
      port: 4567,
      headless: true,
      userDataDir: '/p/work',
    });
  });

  it('explains a browser that ignored its port because of the default data directory, and stops it', async () => {
    const host = fakeHost([]);
    host.nextLaunch = () => ({
      pid: 99,
      listening: Promise.resolve({
        refused: 'DevTools remote debugging requires a non-default data directory.',
      }),
      exited: new Promise(() => undefined),
    });
    const error = await refusal(attachOrLaunch(target(host)));
    expect(error.reason).toBe('default-profile');
    expect(error.message).toContain('Chrome 136 and later ignore --remote-debugging-port');
    // It keeps running without a port: the bridge stops what it cannot use.
    expect(host.stopped).toEqual([99]);
  });

  it('reports what a browser that died during start-up printed', async () => {
    const host = fakeHost([]);
    host.nextLaunch = () => ({
      pid: 99,
      listening: new Promise(() => undefined),
      exited: Promise.resolve('Missing X server or $DISPLAY'),
    });
    const error = await refusal(attachOrLaunch(target(host)));
    expect(error).toMatchObject({
      reason: 'launch-failed',
      message: `${CHROME} did not start: Missing X server or $DISPLAY`,
    });
  });
});

describe('the switches a launched browser gets', () => {
  it('are the bridge own (profile, any free port, no first-run UI) plus what the policy let through', () => {
    const host = fakeHost();
    const args = launchArgs(
      target(host, { forwardedArgs: ['--window-size=800,600', '--no-first-run', 'about:blank'] }),
      false,
    );
    expect(args).toEqual([
      '--user-data-dir=/p/work',
      '--remote-debugging-port=0',
      '--no-first-run',
      '--no-default-browser-check',
      '--headless',
      '--window-size=800,600',
      'about:blank',
    ]);
    expect(launchArgs(target(host, { headless: false }), true)).toContain('--no-sandbox');
    expect(launchArgs(target(host, { headless: false }), true)).not.toContain('--headless');
  });
});
