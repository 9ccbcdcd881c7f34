/**
 * bproxy's tab groups in a real headed browser: a shared tab's group says it is bproxy's and which
 * site it holds (never the session id, a capability); a group titled as bproxy's that no live session
 * holds — what Chrome brings back of a saved group after a restart — is ungrouped when Chrome shows
 * it; and when the daemon goes away, the groups of its sessions go with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchHeaded, type HeadedMachine } from '../kit/headed';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { until } from '../kit/wait';

let machine: HeadedMachine;
let pages: FixtureServer;

beforeAll(async () => {
  pages = await serveFixtures();
  machine = await launchHeaded('bproxy-headed-groups-');
  await machine.connected();
}, 120_000);

afterAll(async () => {
  await machine?.close();
  await pages?.close();
}, 60_000);

interface Api {
  chrome: {
    tabs: {
      query(q: object): Promise<{ id?: number; url?: string; groupId: number }[]>;
      group(o: { tabIds: number[] }): Promise<number>;
    };
    tabGroups: {
      query(q: object): Promise<{ id: number; title?: string }[]>;
      update(id: number, p: { title: string }): Promise<unknown>;
    };
  };
}

/** The title of the group holding the tab showing `url` ('' when it is in none). */
const groupOf = (url: string): Promise<string> =>
  machine.inWorker(async (u) => {
    const { chrome } = globalThis as unknown as Api;
    const [tab] = await chrome.tabs.query({ url: u });
    if (tab === undefined || tab.groupId === -1) return '';
    const groups = await chrome.tabGroups.query({});
    return groups.find((g) => g.id === tab.groupId)?.title ?? '';
  }, url);

describe('bproxy’s tab groups', () => {
  it('titles a shared tab’s group by its site, removes a ghost group, and lets groups go with the daemon', async () => {
    const shared = await machine.browser.context.newPage();
    await shared.goto(pages.url('ext-form.html'));
    await shared.bringToFront();
    const { target: panel } = await machine.openSidePanel();
    await panel.click('#share');
    const session = await until('the panel to show the session', () =>
      panel
        .evaluate<string>("document.getElementById('session-id').textContent || ''")
        .then((t) => t || undefined),
    );
    expect(await until('the group', () => groupOf(pages.url('ext-form.html')))).toBe(
      'bproxy · shared: 127.0.0.1',
    );
    expect(await groupOf(pages.url('ext-form.html'))).not.toContain(session);

    // A group titled as bproxy's around a tab no session holds, as a restored saved group is.
    const other = await machine.browser.context.newPage();
    await other.goto(pages.url('ext-form.html?ghost'));
    await machine.inWorker(async (u) => {
      const { chrome } = globalThis as unknown as Api;
      const [tab] = await chrome.tabs.query({ url: u });
      if (tab?.id === undefined) throw new Error('no ghost tab');
      const groupId = await chrome.tabs.group({ tabIds: [tab.id] });
      await chrome.tabGroups.update(groupId, { title: 'bproxy · shared: 127.0.0.1' });
    }, pages.url('ext-form.html?ghost'));
    await until(
      'the ghost group to go',
      async () => (await groupOf(pages.url('ext-form.html?ghost'))) === '',
    );
    expect(await groupOf(pages.url('ext-form.html'))).toBe('bproxy · shared: 127.0.0.1');

    // The daemon stops: no session can be live, so no group claims one.
    await machine.cli.ok(['service', 'stop']);
    await until(
      'the shared tab’s group to go',
      async () => (await groupOf(pages.url('ext-form.html'))) === '',
    );
    panel.close();
    await other.close();
    await shared.close();
  });
});
