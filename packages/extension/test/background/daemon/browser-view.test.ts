/**
 * The session's tab group when Chrome will not group one of its tabs (a popup window a page opened:
 * only tabs of normal windows can be grouped): the other tabs are grouped all the same.
 */
import { describe, expect, it } from 'vitest';
import { BrowserSessionSchema, type BrowserSession } from '@bproxy/protocol';
import { BrowserView } from '../../../src/background/daemon/browser-view';
import { WorkerLog } from '../../../src/background/log';
import { fakeChrome, flush } from '../../helpers/fakes';

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
    expect(titles.get(40)).toBe('abc234');
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
});
