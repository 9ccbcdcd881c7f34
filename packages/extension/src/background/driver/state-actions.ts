/**
 * state.save, state.load, cookies.* and emulate in the user's own Chrome, through chrome.debugger on
 * the tab (the driver kit's one implementation, as the CDP driver runs it). This is the user's real
 * browser, so:
 * - state.save takes only the cookies the current page sees, never the whole browser's; the daemon
 *   lets it, cookies.list and cookies.clear through only when the user allowed it;
 * - state.load and cookies.set never overwrite a cookie (or a localStorage key) the browser already
 *   has: the answer names what was kept; localStorage is read and loaded for the page's own origin
 *   only (a script in the page: the debugger has no DOMStorage), other origins are named as skipped;
 * - emulate applies only what stays inside the tab (the viewport with its scale, the color scheme) and
 *   names the rest as not applied. The debugger's overrides end when it leaves the tab (a shared tab
 *   released) or with the tab (one the session opened, closed with the session).
 */
import type { LocalStorageAccess, StateSender } from '@bproxy/driver';
import { applyEmulation, clearCookies, listCookies, loadState, saveState, setCookie } from '@bproxy/driver';
import { type ActionCall, type ActionHandler, type DriverContext, tabIdOf } from './context';
import { fail, messageOf } from './errors';
import { getTab } from './tab-state';

/** The tab's debugger channel and its URL; refuses when Chrome will not let the debugger on the tab. */
async function debuggerOf(ctx: DriverContext, call: ActionCall): Promise<{ s: StateSender; url: string }> {
  const tabId = tabIdOf(call);
  const attached = await ctx.dialogs.attach(tabId);
  if (!attached.ok)
    fail(
      'DEBUGGER_DISABLED',
      `${call.action} needs the debugger on this tab, which Chrome refused: ${attached.reason}`,
    );
  const tab = await getTab(ctx, tabId, call.action);
  const s: StateSender = {
    send: async (method, params) => {
      try {
        return (await ctx.chrome.debugger.sendCommand({ tabId }, method, { ...params })) as never;
      } catch (error) {
        return fail('DRIVER_ERROR', `${call.action}: ${method} failed (${messageOf(error)})`);
      }
    },
  };
  return { s, url: tab.url ?? '' };
}

type Entries = { name: string; value: string }[];

/** Runs in the page's isolated world: the page's localStorage, read or added to (never cleared). */
function pageStorage(entries: Entries | null): Entries {
  if (entries !== null) for (const e of entries) localStorage.setItem(e.name, e.value);
  const out: Entries = [];
  for (let i = 0; i < localStorage.length; i++) {
    const name = localStorage.key(i);
    if (name !== null) out.push({ name, value: localStorage.getItem(name) ?? '' });
  }
  return out;
}

/**
 * localStorage through a script in the tab's top frame (chrome.debugger has no DOMStorage domain):
 * the origin of the page the tab shows, and no other.
 */
function tabLocalStorage(ctx: DriverContext, tabId: number, pageUrl: string): LocalStorageAccess {
  let pageOrigin = '';
  try {
    pageOrigin = new URL(pageUrl).origin;
  } catch {
    pageOrigin = '';
  }
  const run = async (entries: Entries | null): Promise<Entries> => {
    try {
      const [first] = await ctx.chrome.scripting.executeScript({
        target: { tabId, frameIds: [0] },
        world: 'ISOLATED',
        func: pageStorage as (...args: never[]) => unknown,
        args: [entries],
      });
      return Array.isArray(first?.result) ? (first.result as Entries) : [];
    } catch (error) {
      return fail('PAGE_NOT_SCRIPTABLE', `localStorage of this page cannot be reached (${messageOf(error)})`);
    }
  };
  return {
    read: async (origin) => (origin === pageOrigin ? run(null) : []),
    async write(origin, entries) {
      if (origin !== pageOrigin) return false;
      if (entries.length > 0) await run(entries);
      return true;
    },
  };
}

export const STATE_ACTIONS = {
  'state.save': {
    async run(ctx, _params, call) {
      const { s, url } = await debuggerOf(ctx, call);
      return saveState(s, tabLocalStorage(ctx, tabIdOf(call), url), url, {});
    },
  },
  'state.load': {
    async run(ctx, params, call) {
      const { s, url } = await debuggerOf(ctx, call);
      return loadState(s, tabLocalStorage(ctx, tabIdOf(call), url), params.state, { keepExisting: true });
    },
  },
  'cookies.list': {
    async run(ctx, _params, call) {
      const { s, url } = await debuggerOf(ctx, call);
      return listCookies(s, url);
    },
  },
  'cookies.set': {
    async run(ctx, params, call) {
      const { s, url } = await debuggerOf(ctx, call);
      return setCookie(s, url, params, { keepExisting: true });
    },
  },
  'cookies.clear': {
    async run(ctx, params, call) {
      const { s, url } = await debuggerOf(ctx, call);
      return clearCookies(s, url, params.name);
    },
  },
  emulate: {
    async run(ctx, params, call) {
      const { s } = await debuggerOf(ctx, call);
      return applyEmulation(s, params, { userChrome: true });
    },
  },
} satisfies {
  [
    A in 'state.save' | 'state.load' | 'cookies.list' | 'cookies.set' | 'cookies.clear' | 'emulate'
  ]: ActionHandler<A>;
};
