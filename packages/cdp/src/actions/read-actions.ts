/**
 * Reads answered by the page bundle as they are (text, links, elements, inspect, snapshot), and
 * screenshots. Each checks for a human first and survives a navigation that replaces the document.
 */
import type { PageAction } from '@bproxy/page';
import { failOnDialog } from '../driver/effects';
import { runPage } from '../driver/page-runner';
import { captureScreenshot } from '../driver/screenshot';
import { checkHuman } from './trusted-page';
import type { DriverResult, HandlerDef } from './context';

type PageRead = 'text' | 'links' | 'elements' | 'inspect' | 'snapshot';

function pageRead<A extends PageRead & PageAction>(action: A): HandlerDef<A> {
  return {
    async run(ctx, params) {
      const tab = ctx.tab();
      const work = runPage(tab, action, params, {
        timeoutMs: ctx.remaining(),
        checkHuman: true,
        retryOnNavigation: true,
      });
      // The driver validates the page's answer against the driver-result schema before it leaves.
      return (await failOnDialog(tab, work, ctx.remaining())) as DriverResult<A>;
    },
  };
}

export const text = pageRead('text');
export const links = pageRead('links');
export const elements = pageRead('elements');
export const inspect = pageRead('inspect');
export const snapshot = pageRead('snapshot');

export const screenshot: HandlerDef<'screenshot'> = {
  async run(ctx, params) {
    const tab = ctx.tab();
    await checkHuman(tab, ctx.remaining());
    return failOnDialog(tab, captureScreenshot(tab, params, ctx.remaining()), ctx.remaining());
  },
};
