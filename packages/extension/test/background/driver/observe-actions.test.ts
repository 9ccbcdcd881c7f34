import { TabObserver } from '@bproxy/driver';
import { describe, expect, it, vi } from 'vitest';
import { DrivenTabs } from '../../../src/background/driver/driven-tabs';
import { installObserver, observeAttached } from '../../../src/background/driver/observe-actions';
import { WorkerLog } from '../../../src/background/log';
import type { DebuggeeTarget } from '../../../src/chrome-api';
import { fakeChrome, type FakeEvent } from '../../helpers/fakes';

const logged = (text: string) => ({ type: 'error', args: [{ type: 'string', value: text }] });

describe("the extension's console and network log", () => {
  it('logs only the tabs it drives, enables the domains once attached, and frees a closed or released tab', async () => {
    const chrome = fakeChrome();
    const tabs = new DrivenTabs(chrome.session, new WorkerLog(100, Date.now, false));
    const observer = new TabObserver();
    installObserver(chrome, tabs, observer);
    const onEvent = chrome.debugger.onEvent as FakeEvent<
      (source: DebuggeeTarget, method: string, params?: unknown) => void
    >;
    const onRemoved = chrome.tabs.onRemoved as FakeEvent<(tabId: number) => void>;
    const sent: string[] = [];
    chrome.debugger.sendCommand = vi.fn((_target: { tabId?: number }, method: string) => {
      sent.push(method);
      return Promise.resolve({});
    });

    // A tab the agent does not hold: nothing of it is kept, even if an event came through.
    onEvent.fire({ tabId: 5 }, 'Runtime.consoleAPICalled', logged('not driven'));
    expect(observer.has(5)).toBe(false);

    tabs.add(9);
    await observeAttached(chrome, observer, 9);
    expect(sent).toEqual(['Runtime.enable', 'Log.enable', 'Network.enable']);
    onEvent.fire({ tabId: 9 }, 'Runtime.consoleAPICalled', logged('driven'));
    onEvent.fire({ tabId: 5 }, 'Runtime.consoleAPICalled', logged('still not driven'));
    expect(observer.log(9).console.items.map((e) => e.text)).toEqual(['driven']);
    expect(observer.has(5)).toBe(false);

    onRemoved.fire(9);
    expect(observer.has(9)).toBe(false);
  });
});
