/**
 * A remote endpoint in per-session mode (a browser farm): every session gets its own browser — its own
 * connection — on its first tab open, closed with the session or after the idle period, at most the
 * cap at once; over the cap, or when the farm refuses, a clear error and nothing left behind. Scripted
 * launchers stand in for the farm here; tests/e2e/farm-browserless.test.ts runs a real one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { BproxyResponse } from '@bproxy/protocol';
import { okData, startDaemon, until, type TestDaemon } from './harness';
import { scriptedLauncher } from './helpers/scripted-launcher';

let daemon: TestDaemon | undefined;
afterEach(async () => {
  await daemon?.close();
  daemon = undefined;
});

const errorOf = (res: BproxyResponse) => {
  if (res.ok) throw new Error(`expected an error, got ${JSON.stringify(res.data)}`);
  return res.error;
};

async function newSession(d: TestDaemon): Promise<string> {
  return okData<{ session: string }>(await d.call('session.create')).session;
}

interface Status {
  clients: { name: string; session?: string; tabs: number; connected: boolean }[];
  remoteBrowsers?: { open: number; max: number };
}
const status = async (d: TestDaemon) => okData<Status>(await d.call('debug.status'));

describe('a browser per session', () => {
  it('opens a session its own browser on its first tab, reuses it for the next, and closes it with the session', async () => {
    const farm = scriptedLauncher('remote', 'per-session', 2);
    daemon = await startDaemon({ launchers: [farm.launcher] });
    const a = await newSession(daemon);
    const b = await newSession(daemon);
    okData(await daemon.call('tab.open', { url: 'http://x/a1' }, a));
    okData(await daemon.call('tab.open', { url: 'http://x/a2' }, a));
    okData(await daemon.call('navigate', { url: 'http://x/b1' }, b));
    expect(farm.drivers.map((d) => d.name)).toEqual([`remote-${a}`, `remote-${b}`]);
    expect(farm.drivers[0]?.received.map((r) => r.params.url)).toEqual(['http://x/a1', 'http://x/a2']);
    expect(farm.drivers[1]?.received.map((r) => r.params.url)).toEqual(['http://x/b1']);
    const tabs = okData<{ tabs: { browser: string }[] }>(await daemon.call('tab.list', {}, a)).tabs;
    expect(tabs.map((t) => t.browser)).toEqual([`remote-${a}`, `remote-${a}`]);
    const before = await status(daemon);
    expect(before.remoteBrowsers).toEqual({ open: 2, max: 2 });
    expect(before.clients).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: `remote-${a}`, session: a, tabs: 2, connected: true }),
        expect.objectContaining({ name: `remote-${b}`, session: b, tabs: 1, connected: true }),
      ]),
    );

    expect(okData(await daemon.call('session.close', {}, a))).toMatchObject({ closedTabs: ['t1', 't2'] });
    expect(farm.drivers[0]?.closedBecause).toBe('session_closed');
    expect(farm.drivers[1]?.closedBecause).toBeNull();
    expect((await status(daemon)).remoteBrowsers).toEqual({ open: 1, max: 2 });
  });

  it('refuses a session over the cap with TOO_MANY_BROWSERS and a retry hint, without asking the farm, then admits it once another closed', async () => {
    const farm = scriptedLauncher('remote', 'per-session', 2);
    daemon = await startDaemon({ launchers: [farm.launcher] });
    const [a, b, c] = [await newSession(daemon), await newSession(daemon), await newSession(daemon)];
    okData(await daemon.call('tab.open', { url: 'http://x/' }, a));
    okData(await daemon.call('tab.open', { url: 'http://x/' }, b));
    const refused = errorOf(await daemon.call('tab.open', { url: 'http://x/' }, c));
    expect(refused).toMatchObject({ code: 'TOO_MANY_BROWSERS', retry: true });
    expect(refused.message).toContain('all 2 remote browsers of "remote" are in use');
    expect(refused.hint).toMatch(/Retry when another session has closed/);
    expect(farm.drivers).toHaveLength(2);

    okData(await daemon.call('session.close', {}, a));
    okData(await daemon.call('tab.open', { url: 'http://x/' }, c));
    expect(farm.open().map((d) => d.name)).toEqual([`remote-${b}`, `remote-${c}`]);
  });

  it('counts browsers still starting against the cap: two opens at once cannot both pass the last place', async () => {
    const farm = scriptedLauncher('remote', 'per-session', 1);
    daemon = await startDaemon({ launchers: [farm.launcher] });
    const [a, b] = [await newSession(daemon), await newSession(daemon)];
    const results = await Promise.all([
      daemon.call('tab.open', { url: 'http://x/' }, a),
      daemon.call('tab.open', { url: 'http://x/' }, b),
    ]);
    expect(results.map((r) => (r.ok ? 'ok' : r.error.code)).sort()).toEqual(['TOO_MANY_BROWSERS', 'ok']);
    expect(farm.drivers).toHaveLength(1);
  });

  it('answers BROWSER_UNAVAILABLE with what the farm said when it refuses, and leaves no session behind', async () => {
    const farm = scriptedLauncher('remote', 'per-session', 2);
    daemon = await startDaemon({ launchers: [farm.launcher] });
    farm.failStarts(
      new Error(
        'ws://farm:3000/?… refused the connection: HTTP 429 Too Many Requests (a browser farm at its limit)',
      ),
    );
    const refused = errorOf(await daemon.call('tab.open', { url: 'http://x/' }));
    expect(refused).toMatchObject({ code: 'BROWSER_UNAVAILABLE', retry: true });
    expect(refused.message).toContain('HTTP 429 Too Many Requests');
    expect(okData<{ sessions: unknown[] }>(await daemon.call('session.list')).sessions).toEqual([]);
    expect((await status(daemon)).remoteBrowsers).toEqual({ open: 0, max: 2 });

    farm.failStarts(null);
    const opened = okData<{ session: string; browser: string }>(
      await daemon.call('tab.open', { url: 'http://x/' }),
    );
    expect(opened.browser).toBe(`remote-${opened.session}`);
  });

  it("never lends one session's browser to another", async () => {
    const farm = scriptedLauncher('remote', 'per-session', 3);
    daemon = await startDaemon({ launchers: [farm.launcher] });
    const [a, b] = [await newSession(daemon), await newSession(daemon)];
    okData(await daemon.call('tab.open', { url: 'http://x/' }, a));
    expect(errorOf(await daemon.call('tab.open', { url: 'http://x/', browser: `remote-${a}` }, b)).code).toBe(
      'BROWSER_NOT_FOUND',
    );
    // Naming the endpoint means "my own browser from it".
    okData(await daemon.call('tab.open', { url: 'http://x/', browser: 'remote' }, b));
    expect(farm.drivers.map((d) => d.name)).toEqual([`remote-${a}`, `remote-${b}`]);
  });

  it("closes a session's browser after the idle period without a tab, and opens a new one on its next tab", async () => {
    const farm = scriptedLauncher('remote', 'per-session', 2);
    daemon = await startDaemon({ launchers: [farm.launcher], browserIdleMs: 300 });
    const a = await newSession(daemon);
    okData(await daemon.call('tab.open', { url: 'http://x/' }, a));
    okData(await daemon.call('tab.close', {}, a));
    await until(() => farm.open().length === 0, "the session's idle farm browser to close", 3_000);
    expect(farm.drivers[0]?.closedBecause).toBe('browser_idle');
    expect((await status(daemon)).remoteBrowsers).toEqual({ open: 0, max: 2 });
    okData(await daemon.call('tab.open', { url: 'http://x/' }, a));
    expect(farm.open().map((d) => d.name)).toEqual([`remote-${a}`]);
  });
});
