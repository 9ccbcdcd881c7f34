/**
 * console, network, network.get and network.har over the tab's log (PageTab.log, fed by the tab's
 * Runtime, Log and Network events), and wait's console-error kind.
 */
import { networkGet, networkHar, readConsole, readNetwork, waitConsoleError } from '@bproxy/driver';
import { pageState } from '../driver/effects';
import type { HandlerDef } from './context';

export const consoleRead: HandlerDef<'console'> = {
  run: async (ctx, params) => {
    const tab = ctx.tab();
    return readConsole(tab.log, params, tab.url);
  },
};

export const networkRead: HandlerDef<'network'> = {
  run: async (ctx, params) => {
    const tab = ctx.tab();
    return readNetwork(tab.log, params, tab.url);
  },
};

export const networkGetRead: HandlerDef<'network.get'> = {
  run: (ctx, params) => {
    const tab = ctx.tab();
    return networkGet(tab.log, params, (method, p) => {
      const requestId = String(p.requestId);
      return method === 'Network.getRequestPostData'
        ? tab.session.send('Network.getRequestPostData', { requestId }, ctx.remaining())
        : tab.session.send('Network.getResponseBody', { requestId }, ctx.remaining());
    });
  },
};

export const networkHarRead: HandlerDef<'network.har'> = {
  run: async (ctx, params) => {
    const tab = ctx.tab();
    const state = await pageState(tab, ctx.remaining());
    return { ...state, records: networkHar(tab.log, params.revealSecrets === true) };
  },
};

/** wait --console-error, in front of the other waits. */
export function withConsoleErrorWait(inner: HandlerDef<'wait'>): HandlerDef<'wait'> {
  return {
    async run(ctx, params, call) {
      if (params.consoleError !== true) return inner.run(ctx, params, call);
      const tab = ctx.tab();
      const started = Date.now();
      const timeoutMs = Math.min(params.timeoutMs ?? ctx.remaining(), ctx.remaining());
      const line = await waitConsoleError(tab.log, timeoutMs);
      return {
        ...(await pageState(tab, ctx.remaining())),
        waitedMs: Date.now() - started,
        consoleError: line,
      };
    },
  };
}
