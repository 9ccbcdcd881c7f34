/**
 * The tab a following side panel serves, with a fake chrome for its window and tabs: the front tab of
 * the panel's own window at start, then that window's tab switches only — another window's switch
 * leaves the panel where it is.
 */
import { describe, expect, it } from 'vitest';
import { followFrontTab, type FrontTabApi } from '../../src/panel/front-tab';
import { FakeEvent } from '../helpers/fakes';

type Activated = (info: { tabId: number; windowId: number }) => void;

function browser(front: Record<number, number>, panelWindow = 1) {
  const onActivated = new FakeEvent<Activated>();
  const queries: unknown[] = [];
  const api: FrontTabApi = {
    windows: { getCurrent: async () => ({ id: panelWindow }) },
    tabs: {
      query: async (q) => {
        queries.push(q);
        const tabId = front[q.windowId];
        return tabId === undefined ? [] : [{ id: tabId }];
      },
      onActivated,
    },
  };
  return { api, onActivated, queries };
}

describe("the side panel's front tab", () => {
  it("starts on the front tab of the panel's own window, not the last focused one", async () => {
    const { api, queries } = browser({ 1: 11, 2: 22 });
    const followed: number[] = [];
    await followFrontTab(api, (tab) => followed.push(tab));
    expect(queries).toEqual([{ active: true, windowId: 1 }]);
    expect(followed).toEqual([11]);
  });

  it("follows tab switches in its window and ignores another window's", async () => {
    const { api, onActivated } = browser({ 1: 11, 2: 22 });
    const followed: number[] = [];
    await followFrontTab(api, (tab) => followed.push(tab));
    onActivated.fire({ tabId: 23, windowId: 2 });
    onActivated.fire({ tabId: 12, windowId: 1 });
    onActivated.fire({ tabId: 24, windowId: 2 });
    expect(followed).toEqual([11, 12]);
  });

  it('keeps a switch made while the first query ran, rather than the older answer', async () => {
    const { api, onActivated } = browser({ 1: 11 });
    const query = api.tabs.query;
    api.tabs.query = async (q) => {
      const answer = await query(q);
      onActivated.fire({ tabId: 12, windowId: 1 });
      return answer;
    };
    const followed: number[] = [];
    await followFrontTab(api, (tab) => followed.push(tab));
    expect(followed).toEqual([12]);
  });

  it('fails (for the panel to say so) when its window cannot be read', async () => {
    const { api } = browser({});
    api.windows.getCurrent = async () => {
      throw new Error('No current window');
    };
    await expect(followFrontTab(api, () => undefined)).rejects.toThrow('No current window');
  });
});
