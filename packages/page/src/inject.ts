/**
 * Entry of the page bundle (dist/page.js). Installs the page API once per document; injecting the
 * bundle again finds it installed and does nothing, so refs survive repeated injections.
 */
import { PAGE_GLOBAL, type PageAction, type PageApi } from './api';
import { createContext } from './context';
import { run } from './dispatch';
import { listenForFrames } from './frames/frame-probe';
import { PAGE_SCRIPT_VERSION } from './version';

const holder = globalThis as unknown as Record<string, PageApi | undefined>;
if (holder[PAGE_GLOBAL] === undefined) {
  const ctx = createContext();
  listenForFrames();
  const api: PageApi = Object.freeze({
    version: PAGE_SCRIPT_VERSION,
    run: (action: PageAction, params: unknown) => run(ctx, action, params),
    refOf: (el: unknown) =>
      el instanceof Element && el.ownerDocument === document ? ctx.registry.refFor(el) : null,
  });
  Object.defineProperty(globalThis, PAGE_GLOBAL, {
    value: api,
    configurable: false,
    enumerable: false,
    writable: false,
  });
}
