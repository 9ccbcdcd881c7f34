/**
 * The session's tab group when Chrome will not group one of its tabs (a popup window a page opened:
 * only tabs of normal windows can be grouped): the other tabs are grouped all the same. Its title says
 * it is bproxy's and tells sessions apart; a group titled as bproxy's that no live session holds (a
 * saved group Chrome brought back) is ungrouped.
 */
import { describe, expect, it } from 'vitest';
import { BrowserSessionSchema, type BrowserSession } from '@bproxy/protocol';
import { BrowserView } from '../../../src/background/daemon/browser-view';
import { WorkerLog } from '../../../src/background/log';
import { FakeEvent, fakeChrome, flush } from '../../helpers/fakes';

function sessionWith(tabIds: number[]): BrowserSession {
  return BrowserSessionSchema.parse({
    info: {
      session: 'abc234',
      state: 'bound',
      tab: 't1',
      tabs: tabIds.map((_, i) => `t${i + 1}`),
      pacing: 'fast',
      paused: false,
      createdAt: 0,
    },
    tabs: tabIds.map((tabId, i) => ({ tab: `t${i + 1}`, tabId, shared: false })),
  });
}

describe('the tab group of a session', () => {
  it('groups the tabs Chrome takes when one of them cannot be grouped', async () => {
    const chrome = fakeChrome();
    const inGroup = new Map<number, number>();
    const popupTab = 7;
    chrome.tabs.group = async ({ tabIds, groupId }) => {
      if (tabIds.includes(popupTab)) throw new Error('Tabs can only be moved to and from normal windows.');
      const id = groupId ?? 40;
      for (const tabId of tabIds) inGroup.set(tabId, id);
      return id;
    };
    const titles = new Map<number, string | undefined>();
    chrome.tabGroups.update = async (groupId, props) => {
      titles.set(groupId, props.title);
    };
    const log = new WorkerLog(100, Date.now, false);
    const view = new BrowserView(chrome, log);

    view.onPush({ type: 'sessions', sessions: [sessionWith([3, popupTab, 9])] });
    await flush();

    expect([...inGroup]).toEqual([
      [3, 40],
      [9, 40],
    ]);
    expect(titles.get(40)).toBe('bproxy · abc234');
    expect(log.tail(100).filter((e) => e.event === 'tab_group_failed')).toEqual([]);
  });

  it('says why when no tab of the session can be grouped', async () => {
    const chrome = fakeChrome();
    chrome.tabs.group = async () => {
      throw new Error('Tabs can only be moved to and from normal windows.');
    };
    const log = new WorkerLog(100, Date.now, false);
    const view = new BrowserView(chrome, log);

    view.onPush({ type: 'sessions', sessions: [sessionWith([5, 6])] });
    await flush();

    expect(log.tail(100)).toContainEqual(
      expect.objectContaining({ event: 'tab_group_failed', session: 'abc234' }),
    );
  });

  it('titles a shared tab’s group by its site, never by its session id, and marks a pause in words', async () => {
    const chrome = fakeChrome();
    const titles: (string | undefined)[] = [];
    chrome.tabs.group = async () => 41;
    chrome.tabs.get = async (tabId) => ({
      id: tabId,
      windowId: 1,
      pinned: false,
      active: true,
      url: 'https://shop.example/cart',
    });
    chrome.tabGroups.update = async (_groupId, props) => {
      titles.push(props.title);
    };
    const view = new BrowserView(chrome, new WorkerLog(100, Date.now, false));
    const shared = sessionWith([3]);
    const id = 'abcdefghijklmnopqrstuvwxyz';
    shared.info = {
      ...shared.info,
      session: id as typeof shared.info.session,
      sharedByUser: true,
      label: 'shared by the user',
      paused: true,
    };

    view.onPush({ type: 'sessions', sessions: [shared] });
    await flush();

    expect(titles).toEqual(['bproxy · paused · shared: shop.example']);
  });

  it('ungroups the groups titled as bproxy’s that no live session holds, after the first sessions and when the link drops', async () => {
    const chrome = fakeChrome();
    const groups = new Map<number, { title: string; tabs: number[] }>([
      [7, { title: 'bproxy · old session', tabs: [11, 12] }],
      [8, { title: 'Work', tabs: [13] }],
    ]);
    chrome.tabGroups.query = async () => [...groups].map(([id, g]) => ({ id, title: g.title }));
    chrome.tabs.query = async ({ groupId }) =>
      (groups.get(groupId)?.tabs ?? []).map((id) => ({ id, windowId: 1, pinned: false, active: false }));
    const ungrouped: number[][] = [];
    chrome.tabs.ungroup = async (tabIds) => {
      ungrouped.push(tabIds);
      for (const [id, g] of groups) if (g.tabs.some((t) => tabIds.includes(t))) groups.delete(id);
    };
    chrome.tabs.group = async () => 9;
    chrome.tabGroups.update = async (groupId, props) => {
      groups.set(groupId, { title: props.title ?? '', tabs: [3] });
    };
    const view = new BrowserView(chrome, new WorkerLog(100, Date.now, false));
    view.install();

    view.onPush({ type: 'sessions', sessions: [sessionWith([3])] });
    await flush(50);
    expect(ungrouped).toEqual([[11, 12]]);
    expect([...groups.keys()].sort()).toEqual([8, 9]);

    view.linkDown();
    await flush(50);
    expect(ungrouped).toEqual([[11, 12], [3]]);
    expect([...groups.keys()]).toEqual([8]);
  });

  it('ungroups a group Chrome brings back titled as bproxy’s (a saved group reopened)', async () => {
    const chrome = fakeChrome();
    chrome.tabGroups.query = async () => [{ id: 5, title: 'bproxy · shared: shop.example' }];
    chrome.tabs.query = async () => [{ id: 21, windowId: 1, pinned: false, active: false }];
    const ungrouped: number[][] = [];
    chrome.tabs.ungroup = async (tabIds) => {
      ungrouped.push(tabIds);
    };
    const view = new BrowserView(chrome, new WorkerLog(100, Date.now, false));
    view.install();
    const created = chrome.tabGroups.onCreated;
    if (!(created instanceof FakeEvent)) throw new Error('not the fake event');
    created.fire({ id: 5, title: 'bproxy · shared: shop.example' });
    await flush(50);
    expect(ungrouped).toEqual([[21]]);
  });
});
