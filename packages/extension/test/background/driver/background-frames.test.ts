/**
 * A driven tab behind the user's keeps being drawn: a screencast starts when the debugger is on a tab
 * that is not in front (none for the tab in front), its frames are acknowledged, and a tab the user
 * leaves gets one then.
 */
import { describe, expect, it } from 'vitest';
import type { Tab } from '../../../src/chrome-api';
import { BackgroundFrames } from '../../../src/background/driver/background-frames';
import { WorkerLog } from '../../../src/background/log';
import { FakeEvent, fakeChrome } from '../../helpers/fakes';

function setup(tabs: Record<number, { active: boolean; windowId: number }>) {
  const chrome = fakeChrome();
  const sent: { tabId: number | undefined; method: string; params?: Record<string, unknown> }[] = [];
  chrome.tabs.get = async (tabId: number): Promise<Tab> => {
    const tab = tabs[tabId];
    if (tab === undefined) throw new Error(`No tab with id: ${tabId}`);
    return { id: tabId, pinned: false, ...tab };
  };
  chrome.debugger.sendCommand = async (target, method, params) => {
    sent.push({ tabId: target.tabId, method, ...(params ? { params } : {}) });
    return {};
  };
  const activated = new FakeEvent<(info: { tabId: number; windowId: number }) => void>();
  chrome.tabs.onActivated = activated;
  const attached = new Set(Object.keys(tabs).map(Number));
  const frames = new BackgroundFrames(
    chrome,
    { isAttached: (id) => attached.has(id), attachedTabs: () => [...attached] },
    new WorkerLog(50, Date.now, false),
  );
  frames.install();
  const casts = () => sent.filter((c) => c.method === 'Page.startScreencast').map((c) => c.tabId);
  return { chrome, sent, activated, frames, casts };
}

describe('frames of a driven tab behind the user’s', () => {
  it('starts a screencast on a tab behind and none on the tab in front, once, and acknowledges its frames', async () => {
    const { chrome, sent, frames, casts } = setup({
      7: { active: false, windowId: 1 },
      8: { active: true, windowId: 1 },
    });
    await frames.keep(7);
    await frames.keep(7);
    await frames.keep(8);
    expect(casts()).toEqual([7]);
    expect(sent.find((c) => c.method === 'Page.startScreencast')?.params).toMatchObject({ maxWidth: 8 });

    (chrome.debugger.onEvent as FakeEvent<(s: { tabId?: number }, m: string, p?: unknown) => void>).fire(
      { tabId: 7 },
      'Page.screencastFrame',
      { sessionId: 3, data: 'x' },
    );
    await Promise.resolve();
    expect(sent.filter((c) => c.method === 'Page.screencastFrameAck')).toEqual([
      { tabId: 7, method: 'Page.screencastFrameAck', params: { sessionId: 3 } },
    ]);

    // The debugger went (idle, release): the next attach starts it again.
    (chrome.debugger.onDetach as FakeEvent<(s: { tabId?: number }, r: string) => void>).fire(
      { tabId: 7 },
      'target_closed',
    );
    await frames.keep(7);
    expect(casts()).toEqual([7, 7]);
  });

  it('starts one on a driven tab the user leaves for another', async () => {
    const tabs = { 8: { active: true, windowId: 1 } };
    const { activated, frames, casts } = setup(tabs);
    await frames.keep(8);
    expect(casts()).toEqual([]);
    tabs[8].active = false;
    activated.fire({ tabId: 9, windowId: 1 });
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(casts()).toEqual([8]);
  });
});
