import { TabObserver } from '@bproxy/driver';
/**
 * The extension's own check of the URLs it gives chrome.tabs, against a faked chrome.*: whatever the
 * daemon sent, navigate and tab.open refuse every URL but http:, https: and about:blank with
 * URL_NOT_ALLOWED before chrome.tabs.update or chrome.tabs.create is called — file: included, since
 * this is the user's own browser, and this extension's own panel and popup.
 */
import { describe, expect, it } from 'vitest';
import type { DriverContext } from '../../../src/background/driver/context';
import { DialogTracker } from '../../../src/background/driver/dialog-tracker';
import { IdleDebugger } from '../../../src/background/driver/idle-debugger';
import { DrivenTabs } from '../../../src/background/driver/driven-tabs';
import { ExecutedTable } from '../../../src/background/driver/executed-table';
import { Executor } from '../../../src/background/driver/executor';
import { WorkerLog } from '../../../src/background/log';
import { NavigationTracker } from '../../../src/background/driver/navigation-tracker';
import { OpenedTabs } from '../../../src/background/driver/opened-tabs';
import { PageRunner } from '../../../src/background/driver/page-runner';
import { fakeChrome } from '../../helpers/fakes';

const TAB = 7;

function setup() {
  const chrome = fakeChrome();
  const log = new WorkerLog(100, Date.now, false);
  const tabs = new DrivenTabs(chrome.session, log);
  const asked: string[] = [];
  chrome.debugger.attach = async () => undefined;
  chrome.debugger.sendCommand = async () => ({});
  chrome.tabs.update = async (tabId, props) => {
    asked.push(`update ${String(props.url)}`);
    return { id: tabId, windowId: 1, url: props.url ?? '', title: '', pinned: false, active: true };
  };
  chrome.tabs.create = async (props) => {
    asked.push(`create ${String(props.url)}`);
    throw new Error('stop here: the URL was let through');
  };
  const dialogs = new DialogTracker(chrome, chrome.session, log);
  const ctx: DriverContext = {
    chrome,
    session: chrome.session,
    log,
    nav: new NavigationTracker(),
    dialogs,
    page: new PageRunner(chrome),
    tabs,
    opened: new OpenedTabs(tabs),
    pointers: new Map(),
    now: Date.now,
    imageSize: async () => ({ width: 1, height: 1 }),
    navigationGraceMs: 0,
    observer: new TabObserver(),
    idle: new IdleDebugger(dialogs, () => true, log),
  };
  ctx.dialogs.install();
  const executor = new Executor(ctx, new ExecutedTable(chrome.session));
  let n = 0;
  const request = (action: string, params: Record<string, unknown>, target = true) =>
    executor.handle({
      id: `r${++n}`,
      action,
      params,
      deadline: Date.now() + 10_000,
      ...(target ? { target: { tabId: TAB } } : {}),
    });
  return { chrome, asked, request };
}

describe('URLs the extension gives chrome.tabs', () => {
  it.each([
    'file:///etc/hostname',
    'file:///home/someone/.bproxy/token',
    'data:text/html,<p>x</p>',
    'view-source:https://example.org/',
    'javascript:alert(1)',
    'chrome://settings',
    'chrome-extension://oajmbecmcoogehkeimcopdfcilgnicbm/panel.html?tab=1',
    'chrome-extension://oajmbecmcoogehkeimcopdfcilgnicbm/popup.html',
    'blob:https://example.org/x',
    'relative/path',
  ])('refuses %s on navigate and tab.open without asking chrome.tabs', async (url) => {
    const { asked, request } = setup();
    const navigate = await request('navigate', { url });
    const open = await request('tab.open', { url }, false);
    for (const answer of [navigate, open]) {
      expect(answer).toMatchObject({ ok: false, error: { code: 'URL_NOT_ALLOWED' } });
    }
    expect(asked).toEqual([]);
  });

  it('hands chrome.tabs an http URL as it was parsed (a blank tab first, then the page)', async () => {
    const { asked, chrome, request } = setup();
    chrome.tabs.create = async (props) => {
      asked.push(`create ${String(props.url)}`);
      return { id: 9, windowId: 1, url: String(props.url), title: '', pinned: false, active: true };
    };
    chrome.tabs.update = async (_tabId, props) => {
      asked.push(`update ${String(props.url)}`);
      throw new Error('stop here: the URL was let through');
    };
    await request('tab.open', { url: 'HTTPS://Example.ORG' }, false);
    expect(asked).toEqual(['create about:blank', 'update https://example.org/']);
  });
});
