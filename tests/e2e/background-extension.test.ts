/**
 * Agents in the background of the user's own Chrome (the extension driver): an agent's tab opens
 * behind the tab the user looks at, in a folded group, and driving it never takes the user's tab or
 * window; `--foreground` is the agent asking otherwise, which the site policy can forbid. A tab behind
 * the user's still draws its frames and runs its timers while it is driven, so the page's animations
 * end as in front. The debugger leaves a driven tab once it has been idle for the daemon's period
 * (BPROXY_DEBUGGER_IDLE, here 1 s) and is back for the next action, which does what it always did.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoChromiumLeft } from '../kit/chromium';
import { Cli } from '../kit/cli';
import { handleOf } from '../kit/mcp';
import { launchWithExtension, pairThroughPopup, type ExtensionBrowser } from '../kit/extension';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { until } from '../kit/wait';

let cli: Cli;
let pages: FixtureServer;
let browser: ExtensionBrowser;

interface TabFacts {
  id: number;
  active: boolean;
  windowId: number;
  groupId: number;
  url: string;
}

beforeAll(async () => {
  pages = await serveFixtures();
  cli = new Cli('bproxy-e2e-background-');
  cli.setEnv({ BPROXY_DEBUGGER_IDLE: '1s' });
  const started = await cli.start(['--browser', 'none']);
  browser = await launchWithExtension();
  await pairThroughPopup(browser, started.pairingCode, started.port);
  await until('the extension to connect', async () => {
    const status = await cli.ok<{ clients: { kind: string; connected: boolean }[] }>(['debug', 'status']);
    return status.clients.some((c) => c.kind === 'extension' && c.connected);
  });
}, 90_000);

afterAll(async () => {
  const dirs = [browser?.userDataDir, cli?.home].filter((d): d is string => d !== undefined);
  await browser?.close();
  await cli?.dispose();
  await pages?.close();
  await expectNoChromiumLeft(dirs);
});

async function tabs(worker: Worker): Promise<TabFacts[]> {
  return worker.evaluate(async () => {
    const api = (globalThis as unknown as { chrome: { tabs: { query(q: object): Promise<TabFacts[]> } } })
      .chrome;
    return (await api.tabs.query({})).map((t) => ({
      id: t.id,
      active: t.active,
      windowId: t.windowId,
      groupId: t.groupId,
      url: t.url,
    }));
  });
}

async function lastFocusedWindow(worker: Worker): Promise<number> {
  return worker.evaluate(async () => {
    const api = (
      globalThis as unknown as { chrome: { windows: { getLastFocused(): Promise<{ id: number }> } } }
    ).chrome;
    return (await api.windows.getLastFocused()).id;
  });
}

async function groupFolded(worker: Worker, groupId: number): Promise<boolean> {
  return worker.evaluate(async (id) => {
    const api = (
      globalThis as unknown as { chrome: { tabGroups: { get(id: number): Promise<{ collapsed: boolean }> } } }
    ).chrome;
    return (await api.tabGroups.get(id)).collapsed;
  }, groupId);
}

/** Whether this extension's debugger is on the tab (what shows Chrome's "being debugged" bar). */
async function debuggerOn(worker: Worker, tabId: number): Promise<boolean> {
  const tabs = await worker.evaluate(
    () => (globalThis as { bproxyStatus?: () => { debuggerTabs: number[] } }).bproxyStatus?.().debuggerTabs,
  );
  return tabs?.includes(tabId) === true;
}

describe("agents in the background of the user's Chrome", () => {
  it("opens and drives an agent's tabs behind the user's by default, in a folded group, never taking the user's tab or window", async () => {
    const user = await browser.context.newPage();
    await user.goto(pages.url('ext-form.html'));
    await user.bringToFront();
    const worker = await browser.worker();
    const before = await tabs(worker);
    const userTab = before.find((t) => t.url === pages.url('ext-form.html'));
    expect(userTab?.active).toBe(true);
    const focused = await lastFocusedWindow(worker);

    const { session } = await cli.ok<{ session: string }>(['session', 'create', '--pacing', 'fast']);
    await cli.ok(['tab', 'open', '-s', session, pages.url('counter.html')]);
    const snapshot = await cli.ok<{ snapshot: string }>(['snapshot', '-s', session]);
    await cli.ok(['click', '-s', session, handleOf(snapshot.snapshot, /button "Increment"/)]);
    expect((await cli.ok<{ text: string }>(['text', '-s', session])).text).toContain('Count: 1');
    // navigate in a session with no tab opens one: behind the user's too.
    const other = await cli.ok<{ session: string }>(['session', 'create', '--pacing', 'fast']);
    await cli.ok(['navigate', '-s', other.session, pages.url('ext-done.html')]);
    await cli.ok(['text', '-s', other.session]);

    const after = await tabs(worker);
    const agentTab = after.find((t) => t.url === pages.url('counter.html'));
    expect(agentTab?.active).toBe(false);
    expect(after.find((t) => t.url === pages.url('ext-done.html'))?.active).toBe(false);
    expect(after.find((t) => t.id === userTab?.id)?.active).toBe(true);
    expect(await lastFocusedWindow(worker)).toBe(focused);
    const groupId = await until('the session group', async () => {
      const tab = (await tabs(worker)).find((t) => t.id === agentTab?.id);
      return tab !== undefined && tab.groupId >= 0 ? tab.groupId : undefined;
    });
    expect(await groupFolded(worker, groupId)).toBe(true);
    await cli.ok(['session', 'close', '-s', session]);
    await cli.ok(['session', 'close', '-s', other.session]);
    await user.close();
  }, 90_000);

  it("draws the frames and runs the timers of an agent's tab behind the user's, as in front", async () => {
    const user = await browser.context.newPage();
    await user.goto(pages.url('ext-form.html'));
    await user.bringToFront();
    const { session } = await cli.ok<{ session: string }>(['session', 'create', '--pacing', 'fast']);
    await cli.ok(['tab', 'open', '-s', session, pages.url('frames.html')]);
    const worker = await browser.worker();
    expect((await tabs(worker)).find((t) => t.url === pages.url('frames.html'))?.active).toBe(false);
    await cli.ok(['click', '-s', session, '--selector', '#go']);
    await cli.ok(['wait', '-s', session, '--text', 'Done:']);
    const text = (await cli.ok<{ text: string }>(['text', '-s', session])).text;
    const got = /Done: frames (\d+), timers (\d+), hidden (\w+)/.exec(text);
    // Half a second in front gives about 30 frames and 45 timers here; a tab Chrome does not draw gets
    // 2 frames or fewer, and a throttled one 1 timer.
    expect(Number(got?.[1])).toBeGreaterThanOrEqual(10);
    expect(Number(got?.[2])).toBeGreaterThanOrEqual(10);
    expect(got?.[3]).toBe('false');
    await cli.ok(['session', 'close', '-s', session]);
    await user.close();
  }, 60_000);

  it('brings the tab to the front when the agent asks with --foreground', async () => {
    const { session } = await cli.ok<{ session: string }>(['session', 'create', '--pacing', 'fast']);
    await cli.ok(['tab', 'open', '-s', session, pages.url('ext-done.html'), '--foreground']);
    const worker = await browser.worker();
    const tab = (await tabs(worker)).find((t) => t.url === pages.url('ext-done.html'));
    expect(tab?.active).toBe(true);
    await cli.ok(['session', 'close', '-s', session]);
  }, 60_000);

  it('answers POLICY_DENIED to --foreground when the site policy forbids it, opening nothing, and still opens behind', async () => {
    const file = join(cli.home, 'policy.json');
    writeFileSync(file, JSON.stringify({ version: 1, default: 'allow', origins: {}, foreground: 'deny' }), {
      mode: 0o600,
    });
    try {
      const { session } = await cli.ok<{ session: string }>(['session', 'create', '--pacing', 'fast']);
      const worker = await browser.worker();
      const before = (await tabs(worker)).length;
      const refused = await cli.fail([
        'tab',
        'open',
        '-s',
        session,
        pages.url('counter.html'),
        '--foreground',
      ]);
      expect(refused.code).toBe('POLICY_DENIED');
      expect(refused.message).toContain('"foreground": "deny"');
      expect((await tabs(worker)).length).toBe(before);
      await cli.ok(['tab', 'open', '-s', session, pages.url('counter.html')]);
      expect((await tabs(worker)).find((t) => t.url === pages.url('counter.html'))?.active).toBe(false);
      await cli.ok(['session', 'close', '-s', session]);
    } finally {
      rmSync(file, { force: true });
    }
  }, 60_000);

  it('takes the debugger off a tab idle for the period and puts it back for the next action, which works as before', async () => {
    const { session } = await cli.ok<{ session: string }>(['session', 'create', '--pacing', 'fast']);
    await cli.ok(['tab', 'open', '-s', session, pages.url('trusted.html')]);
    const worker = await browser.worker();
    const tab = (await tabs(worker)).find((t) => t.url === pages.url('trusted.html'));
    const tabId = Number(tab?.id);
    await cli.ok(['click', '-s', session, '--selector', '#count']);
    await until('the debugger to leave the idle tab', async () => !(await debuggerOn(worker, tabId)), 20_000);

    // The next action attaches again before it runs: its click is the browser's own (trusted), as the
    // first one was, and counted once.
    await cli.ok(['click', '-s', session, '--selector', '#count']);
    expect((await cli.ok<{ text: string }>(['text', '-s', session])).text).toContain(
      'clicks: trusted 2, untrusted 0',
    );
    await cli.ok(['session', 'close', '-s', session]);
  }, 60_000);
});
