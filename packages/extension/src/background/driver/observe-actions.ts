/**
 * The console and network log of the tabs this extension drives, through the chrome.debugger it
 * already attaches to them (never to another tab): once attached, Runtime, Log and Network are enabled
 * and their events feed the tab's log (@bproxy/driver's TabLog), which goes when the tab closes or is
 * released. The log lives in the worker's memory only — never in extension storage — so a restarted
 * worker starts a new one. Here too: console, network, network.get, network.har and wait's
 * console-error kind.
 */
import {
  OBSERVED_DOMAINS,
  networkGet,
  networkHar,
  readConsole,
  readNetwork,
  waitConsoleError,
  type TabLog,
  type TabObserver,
} from '@bproxy/driver';
import type { ChromeApi } from '../../chrome-api';
import { type ActionHandler, type DriverContext, tabIdOf } from './context';
import type { DrivenTabs } from './driven-tabs';
import { fail } from './errors';
import { pageState } from './tab-state';

/** Feeds the debugger's events of driven tabs to their logs; a closed tab's log goes. */
export function installObserver(chrome: ChromeApi, tabs: DrivenTabs, observer: TabObserver): void {
  chrome.debugger.onEvent.addListener((source, method, params) => {
    const tabId = source.tabId;
    if (tabId !== undefined && tabs.has(tabId)) observer.feed(tabId, method, params);
  });
  chrome.tabs.onRemoved.addListener((tabId) => observer.release(tabId));
}

/** Right after the debugger is attached to a driven tab: its log starts and the domains are enabled. */
export async function observeAttached(
  chrome: ChromeApi,
  observer: TabObserver,
  tabId: number,
): Promise<void> {
  observer.log(tabId);
  for (const method of OBSERVED_DOMAINS) await chrome.debugger.sendCommand({ tabId }, method);
}

export async function logOf(ctx: DriverContext, tabId: number, what: string): Promise<TabLog> {
  const attached = await ctx.dialogs.attach(tabId);
  if (!attached.ok)
    fail('DEBUGGER_DISABLED', `${what}: the browser refused the debugger on this tab (${attached.reason})`);
  return ctx.observer.log(tabId);
}

export const consoleRead: ActionHandler<'console'> = {
  async run(ctx, params, call) {
    const tabId = tabIdOf(call);
    const log = await logOf(ctx, tabId, 'console');
    return readConsole(log, params, (await pageState(ctx, tabId, 'console')).url);
  },
};

export const networkRead: ActionHandler<'network'> = {
  async run(ctx, params, call) {
    const tabId = tabIdOf(call);
    const log = await logOf(ctx, tabId, 'network');
    return readNetwork(log, params, (await pageState(ctx, tabId, 'network')).url);
  },
};

export const networkGetRead: ActionHandler<'network.get'> = {
  async run(ctx, params, call) {
    const tabId = tabIdOf(call);
    const log = await logOf(ctx, tabId, 'network.get');
    return networkGet(log, params, (method, p) => ctx.chrome.debugger.sendCommand({ tabId }, method, p));
  },
};

export const networkHarRead: ActionHandler<'network.har'> = {
  async run(ctx, params, call) {
    const tabId = tabIdOf(call);
    const log = await logOf(ctx, tabId, 'network.har');
    const state = await pageState(ctx, tabId, 'network.har');
    return { ...state, records: networkHar(log, params.revealSecrets === true) };
  },
};

/** wait --console-error, in front of the other waits. */
export function withConsoleErrorWait(inner: ActionHandler<'wait'>): ActionHandler<'wait'> {
  return {
    async run(ctx, params, call) {
      if (params.consoleError !== true) return inner.run(ctx, params, call);
      const tabId = tabIdOf(call);
      const log = await logOf(ctx, tabId, 'wait');
      const started = ctx.now();
      const timeoutMs = Math.max(
        0,
        Math.min(params.timeoutMs ?? call.deadline - started, call.deadline - started),
      );
      const line = await waitConsoleError(log, timeoutMs);
      return { ...(await pageState(ctx, tabId, 'wait')), waitedMs: ctx.now() - started, consoleError: line };
    },
  };
}
