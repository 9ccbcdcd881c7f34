/**
 * Actions carried out by the page script: reads (text, links, elements, inspect, snapshot), scroll,
 * wait, and the interactions (click, hover, fill, type, press, select) — click, hover, type and press
 * only when trusted input cannot be sent (trusted-actions.ts). Around the page call this adds
 * what only the browser side can know: whether a dialog opened (the page is then blocked, so the action
 * answers at once with the dialog in its effects), whether the action started a navigation (waited for,
 * then reported as `navigated`), and whether the page now needs a human.
 */
import { framedRead, runInFrame, type FrameRead } from '@bproxy/driver';
import type { PageAction } from '@bproxy/page';
import type { ElementTarget } from '@bproxy/protocol';
import { extensionFramePages } from './frame-pages';
import type { PageCall } from './page-runner';
import { driverFlags, type DriverFlags, type DriverResult, type ForwardedAction } from '@bproxy/protocol';
import { type ActionCall, type ActionHandler, type DriverContext, tabIdOf } from './context';
import { DriverFailure, fail } from './errors';
import type { OpenDialog } from './dialog-tracker';
import { assertNoDialog, assertNoHuman, dialogOpenError, pageState, waitForLoad } from './tab-state';
import { browserWait, isBrowserWait } from './wait-conditions';

/** The page actions of the protocol: their driver flags (ledger, effects, navigation) say how each runs. */
type PageActionName = Extract<PageAction, ForwardedAction>;

type Raced = { kind: 'page'; data: unknown } | { kind: 'dialog'; dialog: OpenDialog };

async function runRacingDialogs(
  ctx: DriverContext,
  call: ActionCall,
  params: unknown,
  tabId: number,
  flags: DriverFlags,
): Promise<Raced> {
  const dialog = ctx.dialogs.nextOpening(tabId);
  try {
    // Opened by the page itself just before we act: the action has not run, so it is refused.
    const already = await ctx.dialogs.current(tabId);
    if (already) throw dialogOpenError(already, call.action);
    const top = {
      checkHuman: true,
      ...(call.request.target?.humanWaiver === undefined
        ? {}
        : { humanWaiver: call.request.target.humanWaiver }),
      ...(flags.pageLedger === true ? { ledgerId: call.request.id } : {}),
    };
    return await Promise.race([
      runFramed(ctx, tabId, call.action as PageActionName, params, top).then((data) => ({
        kind: 'page' as const,
        data,
      })),
      dialog.opened.then((d) => ({ kind: 'dialog' as const, dialog: d })),
    ]);
  } finally {
    dialog.cancel();
  }
}

const FRAME_READS: ReadonlySet<string> = new Set(['snapshot', 'elements', 'links', 'text']);

/**
 * The page call, frames included: a read also reads the tab's cross-origin frames, an action whose
 * target lies in a frame runs in that frame (see @bproxy/driver frame-reads and frame-input).
 */
async function runFramed(
  ctx: DriverContext,
  tabId: number,
  action: PageActionName,
  params: unknown,
  top: Omit<PageCall, 'action' | 'params'>,
): Promise<unknown> {
  const pages = extensionFramePages(ctx.chrome, ctx.page, tabId, top);
  const own = (): Promise<unknown> => ctx.page.run(tabId, { ...top, action, params });
  const p = (params ?? {}) as Record<string, unknown> & { target?: ElementTarget };
  if (FRAME_READS.has(action)) return framedRead(pages, action as FrameRead, p, own);
  const inFrame = await runInFrame(pages, action, p);
  return inFrame === null ? own() : inFrame.data;
}

/** After an interaction: did it start a navigation? If so, wait for the new page and check it. */
export async function settleNavigation(
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
export const REQUESTED_NAVIGATION_MS = 3_000;

/**
 * How long to wait for the browser to report a navigation after an interaction. The page script says
 * whether the action asked for one (Navigation API): then wait for it; if it says no, do not wait at
 * all; only when it cannot tell, fall back to a short grace period.
 */
function navigationWait(ctx: DriverContext, flags: DriverFlags, data: Record<string, unknown>): number {
  if (flags.mayNavigate !== true) return 0;
  if (data.navigated === true) return REQUESTED_NAVIGATION_MS;
  if (data.navigated === false) return 0;
  return ctx.navigationGraceMs;
}

/**
 * A page action as its driver flags describe it. The result is the page's answer plus what the browser
 * saw; the executor checks it against the driver-result schema before it leaves.
 */
function pageAction<A extends PageActionName>(): ActionHandler<A> {
  return {
    async run(ctx, params, call) {
      const flags = driverFlags(call.action);
      const tabId = tabIdOf(call);
      await ctx.dialogs.ensureAttached(tabId);
      await assertNoDialog(ctx, tabId, call.action);
      const mark = ctx.nav.mark();
      let raced: Raced;
      try {
        raced = await runRacingDialogs(ctx, call, params, tabId, flags);
      } catch (error) {
        // The action's own navigation can replace the document before its answer comes back.
        const replaced =
          flags.effects === true && ctx.nav.since(tabId, mark).some((e) => e.kind === 'before');
        if (!replaced || !(error instanceof DriverFailure) || error.error.code !== 'DRIVER_ERROR')
          throw error;
        raced = { kind: 'page', data: {} };
      }
      if (flags.effects !== true) {
        if (raced.kind === 'dialog') {
          fail(
            'DIALOG_OPEN',
            `${call.action}: the page opened a ${raced.dialog.type} dialog; answer it with the dialog action`,
            {
              details: { dialog: { type: raced.dialog.type, message: raced.dialog.message } },
            },
          );
        }
        return raced.data as DriverResult<A>;
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
        return effects as DriverResult<A>;
      }
      const data = (raced.data ?? {}) as Record<string, unknown>;
      const navigated = await settleNavigation(ctx, call, tabId, mark, navigationWait(ctx, flags, data));
      const state = await pageState(ctx, tabId, call.action);
      return { ...data, ...state, navigated } as DriverResult<A>;
    },
  };
}

const waitInPage = pageAction<'wait'>();

/** `wait --navigation` is answered by the browser: the page cannot outlive the navigation it waits for. */
const wait: ActionHandler<'wait'> = {
  async run(ctx, params, call) {
    if (isBrowserWait(params)) return browserWait(ctx, params, call, tabIdOf(call));
    if (params.navigation !== true) return waitInPage.run(ctx, params, call);
    const tabId = tabIdOf(call);
    const started = ctx.now();
    const timeoutMs = params.timeoutMs ?? Math.max(0, call.deadline - started);
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
  text: pageAction<'text'>(),
  links: pageAction<'links'>(),
  elements: pageAction<'elements'>(),
  inspect: pageAction<'inspect'>(),
  snapshot: pageAction<'snapshot'>(),
  wait,
  scroll: pageAction<'scroll'>(),
  click: pageAction<'click'>(),
  hover: pageAction<'hover'>(),
  fill: pageAction<'fill'>(),
  type: pageAction<'type'>(),
  press: pageAction<'press'>(),
  select: pageAction<'select'>(),
} as const;
