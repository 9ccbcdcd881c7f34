/**
 * Actions carried out by the page script: reads (text, links, elements, inspect, snapshot), scroll,
 * wait, and the interactions (click, hover, fill, type, press, select). Around the page call this adds
 * what only the browser side can know: whether a dialog opened (the page is then blocked, so the action
 * answers at once with the dialog in its effects), whether the action started a navigation (waited for,
 * then reported as `navigated`), and whether the page now needs a human.
 */
import type { PageAction } from '@bproxy/page';
import { type ActionCall, type ActionHandler, type DriverContext, tabIdOf } from './context';
import { DriverFailure, fail } from './errors';
import type { OpenDialog } from './dialog-tracker';
import { assertNoDialog, assertNoHuman, dialogOpenError, pageState, waitForLoad } from './tab-state';

interface PageActionOptions {
  /** Changes the page: recorded in the page ledger so a replay cannot act twice. */
  ledger: boolean;
  /** Answers with effects { url, title, navigated, dialog? }. */
  effects: boolean;
  /** May start a navigation (link click, Enter in a form, onchange handler): wait a moment to see. */
  mayNavigate: boolean;
}

type Raced = { kind: 'page'; data: unknown } | { kind: 'dialog'; dialog: OpenDialog };

async function runRacingDialogs(
  ctx: DriverContext,
  call: ActionCall,
  tabId: number,
  options: PageActionOptions,
): Promise<Raced> {
  const dialog = ctx.dialogs.nextOpening(tabId);
  try {
    // Opened by the page itself just before we act: the action has not run, so it is refused.
    const already = await ctx.dialogs.current(tabId);
    if (already) throw dialogOpenError(already, call.action);
    return await Promise.race([
      ctx.page
        .run(tabId, {
          action: call.action as PageAction,
          params: call.params,
          checkHuman: true,
          ...(call.request.target?.humanWaiver === undefined
            ? {}
            : { humanWaiver: call.request.target.humanWaiver }),
          ...(options.ledger ? { ledgerId: call.request.id } : {}),
        })
        .then((data) => ({ kind: 'page' as const, data })),
      dialog.opened.then((d) => ({ kind: 'dialog' as const, dialog: d })),
    ]);
  } finally {
    dialog.cancel();
  }
}

/** After an interaction: did it start a navigation? If so, wait for the new page and check it. */
async function settleNavigation(
  ctx: DriverContext,
  call: ActionCall,
  tabId: number,
  mark: number,
  graceMs: number,
): Promise<boolean> {
  const started = await ctx.nav.waitFor(
    tabId,
    mark,
    (e) => e.kind === 'before' || e.kind === 'history' || e.kind === 'fragment',
    graceMs,
  );
  if (started?.kind === 'before') {
    await waitForLoad(ctx, call, tabId, mark, 'load', call.action);
  }
  const navigated = ctx.nav.navigatedSince(tabId, mark);
  if (navigated) await assertNoHuman(ctx, tabId);
  return navigated;
}

/** A navigation the page saw requested will reach the browser within this long (it usually has already). */
const REQUESTED_NAVIGATION_MS = 3_000;

/**
 * How long to wait for the browser to report a navigation after an interaction. The page script says
 * whether the action asked for one (Navigation API): then wait for it; if it says no, do not wait at
 * all; only when it cannot tell, fall back to a short grace period.
 */
function navigationWait(
  ctx: DriverContext,
  options: PageActionOptions,
  data: Record<string, unknown>,
): number {
  if (!options.mayNavigate) return 0;
  if (data.navigated === true) return REQUESTED_NAVIGATION_MS;
  if (data.navigated === false) return 0;
  return ctx.navigationGraceMs;
}

function pageAction(options: PageActionOptions): ActionHandler {
  return {
    needsTab: true,
    // Re-running is safe: reads have no effect, and changes are deduplicated by the page ledger.
    resumable: true,
    async run(ctx, call) {
      const tabId = tabIdOf(call);
      await ctx.dialogs.ensureAttached(tabId);
      await assertNoDialog(ctx, tabId, call.action);
      const mark = ctx.nav.mark();
      let raced: Raced;
      try {
        raced = await runRacingDialogs(ctx, call, tabId, options);
      } catch (error) {
        // The action's own navigation can replace the document before its answer comes back.
        const replaced = options.effects && ctx.nav.since(tabId, mark).some((e) => e.kind === 'before');
        if (!replaced || !(error instanceof DriverFailure) || error.error.code !== 'DRIVER_ERROR')
          throw error;
        raced = { kind: 'page', data: {} };
      }
      if (!options.effects) {
        if (raced.kind === 'dialog') {
          fail(
            'DIALOG_OPEN',
            `${call.action}: the page opened a ${raced.dialog.type} dialog; answer it with the dialog action`,
            {
              details: { dialog: { type: raced.dialog.type, message: raced.dialog.message } },
            },
          );
        }
        return raced.data;
      }
      if (raced.kind === 'dialog') {
        const state = await pageState(ctx, tabId, call.action);
        const effects: Record<string, unknown> = {
          ...state,
          navigated: ctx.nav.navigatedSince(tabId, mark),
          dialog: { type: raced.dialog.type, message: raced.dialog.message },
        };
        // select answers which options ended up chosen; the page could not tell us, so none are claimed.
        if (call.action === 'select') effects.selected = [];
        return effects;
      }
      const data = (raced.data ?? {}) as Record<string, unknown>;
      const navigated = await settleNavigation(ctx, call, tabId, mark, navigationWait(ctx, options, data));
      const state = await pageState(ctx, tabId, call.action);
      return { ...data, ...state, navigated };
    },
  };
}

const read = pageAction({ ledger: false, effects: false, mayNavigate: false });

/** `wait --navigation` is answered by the browser: the page cannot outlive the navigation it waits for. */
const wait: ActionHandler = {
  needsTab: true,
  resumable: true,
  async run(ctx, call) {
    if (call.params.navigation !== true) return read.run(ctx, call);
    const tabId = tabIdOf(call);
    const started = ctx.now();
    const timeoutMs =
      typeof call.params.timeoutMs === 'number'
        ? call.params.timeoutMs
        : Math.max(0, call.deadline - started);
    const mark = ctx.nav.mark();
    const event = await ctx.nav.waitFor(
      tabId,
      mark,
      (e) => e.kind === 'before' || e.kind === 'history',
      timeoutMs,
    );
    if (!event) fail('WAIT_TIMEOUT', `wait: no navigation within ${timeoutMs} ms`);
    if (event.kind === 'before') await waitForLoad(ctx, call, tabId, mark, 'load', 'wait');
    return { ...(await pageState(ctx, tabId, 'wait')), waitedMs: ctx.now() - started };
  },
};

export const PAGE_ACTIONS = {
  text: read,
  links: read,
  elements: read,
  inspect: read,
  snapshot: read,
  wait,
  scroll: pageAction({ ledger: true, effects: false, mayNavigate: false }),
  click: pageAction({ ledger: true, effects: true, mayNavigate: true }),
  hover: pageAction({ ledger: true, effects: true, mayNavigate: false }),
  fill: pageAction({ ledger: true, effects: true, mayNavigate: false }),
  type: pageAction({ ledger: true, effects: true, mayNavigate: true }),
  press: pageAction({ ledger: true, effects: true, mayNavigate: true }),
  select: pageAction({ ledger: true, effects: true, mayNavigate: true }),
} as const;
