/**
 * Reads answered by the page bundle as they are (text, links, elements, inspect, snapshot), and
 * screenshots. Each checks for a human first and survives a navigation that replaces the document.
 */
import { framedRead, runInFrame } from '@bproxy/driver';
import type { PageAction } from '@bproxy/page';
import { failOnDialog } from '../driver/effects';
import { runPage } from '../driver/page-runner';
import { captureScreenshot } from '../driver/screenshot';
import { checkHuman } from './trusted-page';
import type { DriverResult, HandlerDef } from './context';

type PageRead = 'text' | 'links' | 'elements' | 'snapshot';

/** A read with the tab's cross-origin frames read too (see @bproxy/driver frame-reads). */
function pageRead<A extends PageRead & PageAction>(action: A): HandlerDef<A> {
  return {
    async run(ctx, params) {
      const tab = ctx.tab();
      const top = (): Promise<unknown> =>
        runPage(tab, action, params, {
          timeoutMs: ctx.remaining(),
          checkHuman: true,
          retryOnNavigation: true,
        });
      const asked = (params ?? {}) as Record<string, unknown>;
      const work = framedRead(tab.frames.pages(ctx.remaining), action, asked, top);
      // The driver validates the answer against the driver-result schema before it leaves.
      return (await failOnDialog(tab, work, ctx.remaining())) as DriverResult<A>;
    },
  };
}

export const text = pageRead('text');
export const links = pageRead('links');
export const elements = pageRead('elements');
export const snapshot = pageRead('snapshot');

export const inspect: HandlerDef<'inspect'> = {
  async run(ctx, params) {
    const tab = ctx.tab();
    const work = async (): Promise<unknown> => {
      const inFrame = await runInFrame(tab.frames.pages(ctx.remaining), 'inspect', params);
      if (inFrame !== null) return inFrame.data;
      return runPage(tab, 'inspect', params, {
        timeoutMs: ctx.remaining(),
        checkHuman: true,
        retryOnNavigation: true,
      });
    };
    return (await failOnDialog(tab, work(), ctx.remaining())) as DriverResult<'inspect'>;
  },
};

export const screenshot: HandlerDef<'screenshot'> = {
  async run(ctx, params) {
    const tab = ctx.tab();
    await checkHuman(tab, ctx.remaining());
    return failOnDialog(tab, captureScreenshot(tab, params, ctx.remaining()), ctx.remaining());
  },
};
