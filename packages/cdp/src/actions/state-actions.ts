/**
 * state.save, state.load, cookies.* and emulate on the tab's own DevTools session (the driver kit's
 * one implementation). A browser bproxy launched is the session's own: state.save takes every cookie
 * it holds, and emulate may grant the page's origin the geolocation permission. An attached or remote
 * browser is someone else's: only the cookies the current page sees, and no permission granted.
 * Files are the daemon's business: this driver answers and receives the state itself.
 */
import {
  applyEmulation,
  clearCookies,
  devtoolsLocalStorage,
  listCookies,
  loadState,
  saveState,
  setCookie,
  type StateSender,
} from '@bproxy/driver';
import '../cdp/state-commands';
import type { ActionContext, HandlerDef } from './context';

function sender(ctx: ActionContext): StateSender {
  const tab = ctx.tab();
  return { send: (method, params) => tab.session.send(method, params, ctx.remaining()) };
}

export const stateSave: HandlerDef<'state.save'> = {
  run(ctx) {
    const browser = ctx.browser();
    const allCookies = async () =>
      (await browser.connection.send('Storage.getCookies', {}, { timeoutMs: ctx.remaining() })).cookies;
    const s = sender(ctx);
    return saveState(s, devtoolsLocalStorage(s), ctx.tab().url, browser.handle.owned ? { allCookies } : {});
  },
};

export const stateLoad: HandlerDef<'state.load'> = {
  run(ctx, params) {
    const s = sender(ctx);
    return loadState(s, devtoolsLocalStorage(s), params.state, { keepExisting: false });
  },
};

export const cookiesList: HandlerDef<'cookies.list'> = {
  run: (ctx) => listCookies(sender(ctx), ctx.tab().url),
};

export const cookiesSet: HandlerDef<'cookies.set'> = {
  run: (ctx, params) => setCookie(sender(ctx), ctx.tab().url, params, { keepExisting: false }),
};

export const cookiesClear: HandlerDef<'cookies.clear'> = {
  run: (ctx, params) => clearCookies(sender(ctx), ctx.tab().url, params.name),
};

export const emulate: HandlerDef<'emulate'> = {
  run(ctx, params) {
    const browser = ctx.browser();
    let origin: string | undefined;
    try {
      const u = new URL(ctx.tab().url);
      if (u.protocol === 'http:' || u.protocol === 'https:') origin = u.origin;
    } catch {
      origin = undefined;
    }
    const grant =
      browser.handle.owned && origin !== undefined
        ? async (): Promise<void> => {
            await browser.connection.send(
              'Browser.grantPermissions',
              { permissions: ['geolocation'], origin },
              { timeoutMs: ctx.remaining() },
            );
          }
        : undefined;
    return applyEmulation(sender(ctx), params, {
      userChrome: false,
      ...(grant === undefined ? {} : { grantGeolocation: grant }),
    });
  },
};
