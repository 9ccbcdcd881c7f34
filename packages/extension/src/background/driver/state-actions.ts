/**
 * state.save, state.load, cookies.* and emulate in the user's own Chrome, through chrome.debugger on
 * the tab (the driver kit's one implementation, as the CDP driver runs it). This is the user's real
 * browser, so:
 * - state.save takes only the cookies the current page sees, never the whole browser's; the daemon
 *   lets it, cookies.list and cookies.clear through only when the user allowed it;
 * - state.load and cookies.set never overwrite a cookie (or a localStorage key) the browser already
 *   has: the answer names what was kept;
 * - emulate applies only what stays inside the tab (the viewport with its scale, the color scheme) and
 *   names the rest as not applied. The debugger's overrides end when it leaves the tab (a shared tab
 *   released) or with the tab (one the session opened, closed with the session).
 */
import type { StateSender } from '@bproxy/driver';
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

export const STATE_ACTIONS = {
  'state.save': {
    async run(ctx, _params, call) {
      const { s, url } = await debuggerOf(ctx, call);
      return saveState(s, url, {});
    },
  },
  'state.load': {
    async run(ctx, params, call) {
      const { s } = await debuggerOf(ctx, call);
      return loadState(s, params.state, { keepExisting: true });
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
