/**
 * wait, dialog and debug.log. A navigation wait is the driver's (the page script dies with its
 * document); text/selector/element waits run in the page and survive a document change by retrying.
 */
import { fail } from '@bproxy/driver';
import { CdpTimeoutError } from '../cdp/errors';
import { failOnDialog, pageState } from '../driver/effects';
import { runPage } from '../driver/page-runner';
import type { DriverResult, HandlerDef } from './context';
import { browserWait, isBrowserWait } from './wait-conditions';

export const wait: HandlerDef<'wait'> = {
  async run(ctx, params) {
    const tab = ctx.tab();
    if (isBrowserWait(params)) return browserWait(tab, params, () => ctx.remaining());
    if (params.navigation === true) {
      const started = Date.now();
      const before = tab.navigations;
      const timeoutMs = Math.min(params.timeoutMs ?? ctx.remaining(), ctx.remaining());
      const done = tab.waitUntil(
        () => (tab.navigations > before && !tab.loading ? true : undefined),
        timeoutMs,
        'wait for a navigation',
      );
      try {
        await failOnDialog(tab, done.promise, timeoutMs);
      } catch (error) {
        if (error instanceof CdpTimeoutError) fail('WAIT_TIMEOUT', `no navigation within ${timeoutMs} ms`);
        throw error;
      } finally {
        done.cancel();
      }
      return { ...(await pageState(tab, ctx.remaining())), waitedMs: Date.now() - started };
    }
    const work = runPage(tab, 'wait', params, {
      timeoutMs: ctx.remaining(),
      checkHuman: true,
      retryOnNavigation: true,
    });
    return (await failOnDialog(tab, work, ctx.remaining())) as DriverResult<'wait'>;
  },
};

export const dialog: HandlerDef<'dialog'> = {
  async run(ctx, params) {
    const tab = ctx.tab();
    const open = tab.dialog;
    if (open === undefined) fail('NO_DIALOG', 'no JavaScript dialog is open in this tab');
    await tab.session.send(
      'Page.handleJavaScriptDialog',
      {
        accept: params.accept,
        ...(params.promptText === undefined ? {} : { promptText: params.promptText }),
      },
      ctx.remaining(),
    );
    // javascriptDialogClosed follows; clearing now lets the next action run without waiting for it.
    if (tab.dialog === open) tab.dialog = undefined;
    return { type: open.type, message: open.message, accepted: params.accept };
  },
};

export const debugLog: HandlerDef<'debug.log'> = {
  async run(ctx, params) {
    return { entries: ctx.log.recent(params.limit ?? 100) };
  },
};
