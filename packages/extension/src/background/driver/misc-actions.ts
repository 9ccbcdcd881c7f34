/**
 * The two actions that are not about a page's content: `dialog` (answer the open JavaScript dialog)
 * and `debug.log` (this worker's recent log lines).
 */
import { type ActionHandler, tabIdOf } from './context';
import { fail, messageOf } from './errors';

export const dialog: ActionHandler<'dialog'> = {
  async run(ctx, params, call) {
    const tabId = tabIdOf(call);
    const open = await ctx.dialogs.current(tabId);
    if (!open) fail('NO_DIALOG', 'dialog: no dialog is open in this tab');
    const accept = params.accept;
    const promptText = params.promptText;
    try {
      await ctx.dialogs.handle(tabId, accept, promptText);
    } catch (error) {
      // Closed meanwhile (by the user, or by the page going away): there is nothing left to answer.
      ctx.dialogs.forget(tabId);
      fail('NO_DIALOG', `dialog: the dialog is no longer open (${messageOf(error)})`);
    }
    return { type: open.type, message: open.message, accepted: accept };
  },
};

export const debugLog: ActionHandler<'debug.log'> = {
  async run(ctx, params) {
    const limit = params.limit ?? 100;
    return { entries: ctx.log.tail(limit) };
  },
};
