/**
 * click, hover, type and press in the service worker, against a faked chrome.*: trusted input through
 * chrome.debugger when it attaches, the page script's synthetic input (said in the answer and the log)
 * when it does not, and no second input for a request a previous worker life had started.
 */
import { describe, expect, it } from 'vitest';
import { callPageApi, focusAtPoint, TabObserver } from '@bproxy/driver';
import type { DriverContext } from '../../../src/background/driver/context';
import type { DebuggeeTarget, NavTargetDetails, ScriptInjection } from '../../../src/chrome-api';
import { DialogTracker } from '../../../src/background/driver/dialog-tracker';
import { IdleDebugger } from '../../../src/background/driver/idle-debugger';
import { DrivenTabs } from '../../../src/background/driver/driven-tabs';
import { ExecutedTable } from '../../../src/background/driver/executed-table';
import { Executor } from '../../../src/background/driver/executor';
import { WorkerLog } from '../../../src/background/log';
import { NavigationTracker } from '../../../src/background/driver/navigation-tracker';
import { OpenedTabs } from '../../../src/background/driver/opened-tabs';
import { PageRunner } from '../../../src/background/driver/page-runner';
import { fakeChrome, flush, type FakeEvent } from '../../helpers/fakes';

const TAB = 7;
const mark = { document: 'd0c0000000000001', navigations: 0, url: 'http://a.test/' };

/** A tab whose page answers like the page script, and a debugger that records what it is sent. */
function setup(options: { attach?: () => Promise<void>; pageLedger?: Set<string> } = {}) {
  const chrome = fakeChrome();
  const log = new WorkerLog(100, Date.now, false);
  const tabs = new DrivenTabs(chrome.session, log);
  const sent: { method: string; params?: Record<string, unknown> }[] = [];
  const pageCalls: string[] = [];
  const ledger = options.pageLedger ?? new Set<string>();
  chrome.debugger.attach = options.attach ?? (async () => undefined);
  chrome.debugger.sendCommand = async (_target, method, params) => {
    sent.push({ method, ...(params === undefined ? {} : { params }) });
    return {};
  };
  chrome.tabs.get = async (tabId) => ({
    id: tabId,
    windowId: 1,
    url: 'http://a.test/',
    title: 'A',
    pinned: false,
    active: true,
  });
  chrome.scripting.executeScript = async (injection: ScriptInjection) => {
    if (injection.func === focusAtPoint) return [{ frameId: 0, result: true }];
    if (injection.func !== callPageApi) throw new Error('unexpected script');
    const [action, , ledgerId] = (injection.args ?? []) as [string, unknown, string | null];
    pageCalls.push(action);
    const data =
      action === 'locate'
        ? { x: 40, y: 50, tag: 'button', editable: false, ...mark }
        : action === 'pageInfo'
          ? { ...mark, title: 'A' }
          : { url: 'http://a.test/', title: 'A', navigated: false };
    const replayed = ledgerId !== null && ledger.has(ledgerId);
    if (ledgerId !== null) ledger.add(ledgerId);
    return [{ frameId: 0, result: { result: { ok: true, data }, ...(replayed ? { replayed: true } : {}) } }];
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
  const pushes: unknown[] = [];
  ctx.opened.install(chrome, { push: (m) => pushes.push(m), ensureConnected: () => undefined });
  const executor = new Executor(ctx, new ExecutedTable(chrome.session));
  const request = (action: string, params: Record<string, unknown>, id = `r-${action}`) =>
    executor.handle({ id, action, params, deadline: Date.now() + 10_000, target: { tabId: TAB } });
  const events = {
    detached: chrome.debugger.onDetach as FakeEvent<(source: DebuggeeTarget, reason: string) => void>,
    debuggerEvent: chrome.debugger.onEvent as FakeEvent<
      (source: DebuggeeTarget, method: string, params?: unknown) => void
    >,
    createdTarget: chrome.webNavigation.onCreatedNavigationTarget as FakeEvent<
      (details: NavTargetDetails) => void
    >,
  };
  return { chrome, events, log, sent, pageCalls, pushes, request };
}

const inputs = (sent: { method: string; params?: Record<string, unknown> }[]) =>
  sent.filter((c) => c.method.startsWith('Input.')).map((c) => c.params?.type ?? c.method);

describe('trusted input in the extension', () => {
  it('clicks through the debugger: moves, presses and releases on the point the page located', async () => {
    const { sent, request, pageCalls } = setup();
    const answer = await request('click', { target: { selector: '#go' } });
    expect(answer).toMatchObject({
      ok: true,
      data: { url: 'http://a.test/', title: 'A', navigated: false },
    });
    expect(answer?.ok && (answer.data as { input?: string }).input).toBeUndefined();
    expect(inputs(sent)).toEqual(['mouseMoved', 'mouseMoved', 'mousePressed', 'mouseReleased']);
    const press = sent.find((c) => c.params?.type === 'mousePressed');
    expect(press?.params).toMatchObject({ x: 40, y: 50, button: 'left', clickCount: 1 });
    // Focus emulation is on, as in the CDP driver, so keys reach a tab that is not in front.
    expect(sent.map((c) => c.method)).toContain('Emulation.setFocusEmulationEnabled');
    // Located, then read again after the input to see whether it asked for a navigation.
    expect(pageCalls).toEqual(['locate', 'locate', 'pageInfo']);
  });

  it('types and presses keys through the debugger after focusing the target', async () => {
    const { sent, request } = setup();
    await request('type', { text: 'hi', target: { selector: '#field' } });
    await request('press', { key: 'Enter' });
    expect(inputs(sent)).toEqual(['keyDown', 'keyUp', 'keyDown', 'keyUp', 'keyDown', 'keyUp']);
  });

  it('falls back to the page script when the debugger is refused, and says so in the answer and the log', async () => {
    const { sent, request, pageCalls, log } = setup({
      attach: async () => {
        throw new Error('Cannot access a chrome-extension:// URL of different extension');
      },
    });
    const answer = await request('click', { target: { selector: '#go' } });
    expect(answer).toMatchObject({ ok: true, data: { input: 'synthetic', navigated: false } });
    expect(inputs(sent)).toEqual([]);
    expect(pageCalls).toEqual(['click']);
    expect(log.tail(20)).toContainEqual(
      expect.objectContaining({
        event: 'input_synthetic',
        level: 'warn',
        action: 'click',
        reason: 'Cannot access a chrome-extension:// URL of different extension',
      }),
    );
  });

  it('falls back when the tab refuses the first input command, nothing having reached the page', async () => {
    const { chrome, request, pageCalls, log } = setup();
    chrome.debugger.sendCommand = async (_target, method) => {
      if (method.startsWith('Input.')) throw new Error('Debugger is not attached to the tab');
      return {};
    };
    const answer = await request('click', { target: { selector: '#go' } });
    expect(answer).toMatchObject({ ok: true, data: { input: 'synthetic' } });
    expect(pageCalls.at(-1)).toBe('click');
    expect(log.tail(5)).toContainEqual(
      expect.objectContaining({ event: 'input_synthetic', reason: 'Debugger is not attached to the tab' }),
    );
  });

  it('stays synthetic on a tab whose debugging bar the user cancelled', async () => {
    const { events, sent, request, log } = setup();
    await request('click', { target: { selector: '#go' } }, 'first');
    events.detached.fire({ tabId: TAB }, 'canceled_by_user');
    sent.length = 0;
    const answer = await request('click', { target: { selector: '#go' } }, 'second');
    expect(answer).toMatchObject({ ok: true, data: { input: 'synthetic' } });
    expect(sent).toEqual([]);
    expect(log.tail(5)).toContainEqual(
      expect.objectContaining({
        event: 'input_synthetic',
        reason: 'the user cancelled the debugging bar on this tab',
      }),
    );
  });

  it('does not send the input again for a request a previous worker life had started', async () => {
    const ledger = new Set(['again:trusted']);
    const { sent, request } = setup({ pageLedger: ledger });
    const answer = await request('click', { target: { selector: '#go' } }, 'again');
    expect(answer).toMatchObject({ ok: true, data: { url: 'http://a.test/', navigated: false } });
    expect(inputs(sent)).toEqual([]);
  });

  it('names the tabs its page opened, told to the daemon as they appeared', async () => {
    const { chrome, events, request, pushes } = setup();
    chrome.debugger.sendCommand = async (_target, method, params) => {
      if ((params as { type?: string } | undefined)?.type === 'mouseReleased') {
        // The page asks for a window at once; the browser's tab comes a moment later.
        events.debuggerEvent.fire({ tabId: TAB }, 'Page.windowOpen', { url: 'http://a.test/popup' });
        setTimeout(() => {
          events.createdTarget.fire({
            sourceTabId: TAB,
            sourceFrameId: 0,
            tabId: 8,
            url: 'http://a.test/popup',
          });
        }, 20);
      }
      return {};
    };
    const answer = await request('click', { target: { selector: '#open' } });
    expect(answer).toMatchObject({
      ok: true,
      data: { openedTabs: [{ tabId: 8, url: 'http://a.test/popup' }] },
    });
    expect(pushes).toEqual([{ type: 'tab_opened', tabId: 8, openerTabId: TAB, url: 'http://a.test/popup' }]);
  });

  it('ignores a tab opened by a tab it does not drive', async () => {
    const { events, pushes } = setup();
    events.createdTarget.fire({
      sourceTabId: 99,
      sourceFrameId: 0,
      tabId: 100,
      url: 'http://b.test/',
    });
    await flush();
    expect(pushes).toEqual([]);
  });
});
