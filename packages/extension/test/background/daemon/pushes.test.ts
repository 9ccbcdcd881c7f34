import type { DriverMessage } from '@bproxy/protocol';
import { describe, expect, it } from 'vitest';
import { DrivenTabs } from '../../../src/background/driver/driven-tabs';
import { WorkerLog } from '../../../src/background/log';
import { installPushes } from '../../../src/background/daemon/pushes';
import { fakeChrome, flush, type FakeEvent } from '../../helpers/fakes';
import type { NavDetails } from '../../../src/chrome-api';

function setup() {
  const chrome = fakeChrome();
  const tabs = new DrivenTabs(chrome.session, new WorkerLog(10, Date.now, false));
  const pushed: DriverMessage[] = [];
  let wakes = 0;
  installPushes(chrome, tabs, { push: (m) => pushed.push(m), ensureConnected: () => (wakes += 1) });
  const committed = chrome.webNavigation.onCommitted as FakeEvent<(d: NavDetails) => void>;
  const history = chrome.webNavigation.onHistoryStateUpdated as FakeEvent<(d: NavDetails) => void>;
  const removed = chrome.tabs.onRemoved as FakeEvent<(tabId: number) => void>;
  return { tabs, pushed, committed, history, removed, wakes: () => wakes };
}

describe('navigation pushes', () => {
  it('tells the daemon about driven tabs only, and wakes the connection on every event', async () => {
    const t = setup();
    t.tabs.add(5);
    t.committed.fire({ tabId: 5, frameId: 0, url: 'http://a.test/' });
    t.committed.fire({ tabId: 5, frameId: 3, url: 'http://frame.test/' });
    t.history.fire({ tabId: 5, frameId: 0, url: 'http://a.test/#/b' });
    t.committed.fire({ tabId: 9, frameId: 0, url: 'http://private.test/' });
    t.removed.fire(5);
    t.removed.fire(9);
    await flush();
    expect(t.pushed).toEqual([
      { type: 'navigation', tabId: 5, url: 'http://a.test/', cause: 'committed' },
      { type: 'navigation', tabId: 5, url: 'http://a.test/#/b', cause: 'history_state' },
      { type: 'tab_closed', tabId: 5 },
    ]);
    expect(t.wakes()).toBe(6);
  });

  it('sends a commit that came before the tab was known as driven once it is', async () => {
    const t = setup();
    t.committed.fire({ tabId: 7, frameId: 0, url: 'http://early.test/' });
    await flush();
    expect(t.pushed).toEqual([]);
    t.tabs.add(7);
    expect(t.pushed).toEqual([
      { type: 'navigation', tabId: 7, url: 'http://early.test/', cause: 'committed' },
    ]);
  });
});
