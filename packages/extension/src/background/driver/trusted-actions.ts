/**
 * click, hover, type and press as the browser's own input (isTrusted, with user activation) through
 * chrome.debugger: the driver kit's sequences, the very commands the CDP driver sends. Around the
 * input this adds what the browser side knows: a dialog the input opened (answered at once), whether
 * the page asked for a navigation (its document mark before and after, see @bproxy/page's
 * DocumentMark), the tabs it opened, and a tab that closed itself. When the debugger cannot be attached
 * to the tab, the page script's synthetic input does the action instead (page-actions.ts), the answer
 * says `input: "synthetic"` and the worker log says why.
 */
import {
  DriverFailure,
  dragWatch,
  focusAtPoint,
  framedTrustedPage,
  scrolledOf,
  trustedSteps,
  type InputSender,
  type LocatedPoint,
  type PointerRest,
  type TrustedCall,
  type TrustedPage,
  type TrustedSteps,
} from '@bproxy/driver';
import type { DocumentMark } from '@bproxy/page';
import type { DriverResult, ElementTarget } from '@bproxy/protocol';
import { type ActionCall, type ActionHandler, type DriverContext, tabIdOf } from './context';
import { fail, messageOf } from './errors';
import { extensionFramePages } from './frame-pages';
import type { OpenDialog } from './dialog-tracker';
import { PAGE_ACTIONS, REQUESTED_NAVIGATION_MS, settleNavigation } from './page-actions';
import { assertNoDialog, pageState } from './tab-state';

type Effects = DriverResult<'click'>;

/** How long an action waits for the tabs its page asked for (Page.windowOpen) to appear. */
const OPENED_CAP_MS = 3_000;
/** How long a failed call waits for the platform to say the tab closed. */
const CLOSE_GRACE_MS = 1_000;

/** The tab refused the first input command: nothing reached the page, so synthetic input may stand in. */
class InputRefused extends Error {
  override readonly name = 'InputRefused';
}

function markOf(data: unknown): DocumentMark | null {
  const d = data as Partial<Record<keyof DocumentMark, unknown>> | null;
  if (d === null || typeof d !== 'object') return null;
  if (typeof d.document !== 'string' || typeof d.navigations !== 'number' || typeof d.url !== 'string')
    return null;
  return { document: d.document, navigations: d.navigations, url: d.url };
}

/** One tab as the kit's TrustedPage: input through chrome.debugger, the page through the page runner. */
export class DebuggerPage implements TrustedPage {
  readonly input: InputSender;
  readonly rest: PointerRest;
  /** The page's ledger held this request already: a previous life of the worker got this far. */
  replayed = false;
  /** The document as the latest page call left it. */
  mark: DocumentMark | null = null;
  private first = true;
  private sent = false;

  constructor(
    private readonly ctx: DriverContext,
    private readonly call: ActionCall,
    private readonly tabId: number,
  ) {
    const rest = ctx.pointers.get(tabId) ?? { pointer: null };
    ctx.pointers.set(tabId, rest);
    this.rest = rest;
    this.input = {
      send: async (method, params) => {
        try {
          const answer = await ctx.chrome.debugger.sendCommand({ tabId }, method, { ...params });
          this.sent = true;
          return answer;
        } catch (error) {
          // Chrome takes the debugger off a tab that gains another extension's frame, for one.
          if (!this.sent) throw new InputRefused(messageOf(error));
          ctx.log.warn('trusted_input_failed', { tabId, method, error: messageOf(error) });
          return fail('DRIVER_ERROR', `the browser stopped taking input in this tab mid-${call.action}`);
        }
      },
      watchDrags: () =>
        dragWatch((seen) => {
          const listener = (source: { tabId?: number }, method: string, params?: unknown): void => {
            if (source.tabId !== tabId || method !== 'Input.dragIntercepted') return;
            const d = (params as { data?: unknown } | undefined)?.data;
            if (typeof d === 'object' && d !== null) seen(d as Record<string, unknown>);
          };
          ctx.chrome.debugger.onEvent.addListener(listener);
          return () => ctx.chrome.debugger.onEvent.removeListener(listener);
        }),
    };
  }

  async locate(
    target: ElementTarget,
    enabled: boolean,
    at?: { x: number; y: number },
  ): Promise<LocatedPoint> {
    const data = await this.pageCall('locate', { target, enabled, ...(at === undefined ? {} : { at }) });
    const point = data as { x?: unknown; y?: unknown } | null;
    if (typeof point?.x !== 'number' || typeof point.y !== 'number')
      fail('DRIVER_ERROR', 'locate: the page did not answer a point { x, y }');
    return { x: point.x, y: point.y, ...scrolledOf(point) };
  }

  async focusAt(point: { x: number; y: number }, caretToEnd: boolean): Promise<boolean> {
    const args: [number, number, boolean] = [point.x, point.y, caretToEnd];
    return (await this.ctx.page.callFunction(this.tabId, focusAtPoint, args, this.call.action)) === true;
  }

  async checkHuman(): Promise<void> {
    await this.pageCall('pageInfo', {});
  }

  /** After the input: did the page ask to navigate, or is another document there already? */
  async askedToNavigate(): Promise<boolean> {
    let now: DocumentMark | null;
    try {
      now = markOf(await this.ctx.page.run(this.tabId, { action: 'pageInfo', params: {} }));
    } catch (error) {
      // The document was replaced under the call, or the tab shows a page scripts may not run on —
      // or the page closed its own tab (a sign-in window when it is done): then no navigation is to
      // be waited for, and the action's closed-tab path answers at once.
      const code = error instanceof DriverFailure ? error.error.code : null;
      if (code !== 'DRIVER_ERROR' && code !== 'PAGE_NOT_SCRIPTABLE') throw error;
      const open = await this.ctx.chrome.tabs.get(this.tabId).then(
        () => true,
        () => false,
      );
      if (!open) fail('TAB_NOT_FOUND', `${this.call.action}: the page closed its tab`);
      return true;
    }
    const before = this.mark;
    return (
      now === null ||
      before === null ||
      now.document !== before.document ||
      now.navigations > before.navigations
    );
  }

  /**
   * The page call of a step, the human check first. The action's first one is recorded in the page's
   * ledger under the request id: a worker restarted after it finds it there (replayed) and knows the
   * input may have gone out already.
   */
  private async pageCall(action: 'locate' | 'pageInfo', params: unknown): Promise<unknown> {
    const waiver = this.call.request.target?.humanWaiver;
    const { data, replayed } = await this.ctx.page.runRecorded(this.tabId, {
      action,
      params,
      checkHuman: true,
      ...(waiver === undefined ? {} : { humanWaiver: waiver }),
      ...(this.first ? { ledgerId: `${this.call.request.id}:trusted` } : {}),
    });
    this.first = false;
    if (replayed) this.replayed = true;
    this.mark = markOf(data) ?? this.mark;
    return data;
  }
}

type Raced<T> = { kind: 'done'; value: T } | { kind: 'dialog'; dialog: OpenDialog };

async function raceDialog<T>(ctx: DriverContext, tabId: number, work: Promise<T>): Promise<Raced<T>> {
  work.catch(() => undefined); // settled by the race, or too late to matter once a dialog answered
  const dialog = ctx.dialogs.nextOpening(tabId);
  try {
    return await Promise.race([
      work.then((value) => ({ kind: 'done' as const, value })),
      dialog.opened.then((d) => ({ kind: 'dialog' as const, dialog: d })),
    ]);
  } finally {
    dialog.cancel();
  }
}

/**
 * Whether the tab went away under the action — a page that closed itself (a sign-in window when it is
 * done) —, which makes the failure no failure of the action. Waits until the close was told to the
 * daemon, so that it hears of it before this answer.
 */
async function closedUnder(ctx: DriverContext, tabId: number, error: unknown): Promise<boolean> {
  if (error instanceof DriverFailure && !['TAB_NOT_FOUND', 'DRIVER_ERROR'].includes(error.error.code))
    return false;
  const exists = await ctx.chrome.tabs.get(tabId).then(
    () => true,
    () => false,
  );
  if (exists) return false;
  await ctx.tabs.gone(tabId, CLOSE_GRACE_MS);
  return true;
}

export async function act(
  ctx: DriverContext,
  call: ActionCall,
  tabId: number,
  page: DebuggerPage,
  steps: TrustedSteps,
): Promise<Effects> {
  const mark = ctx.nav.mark();
  const opening = ctx.opened.mark(tabId);
  try {
    const raced = await raceDialog(ctx, tabId, steps.act());
    if (raced.kind === 'dialog') {
      const { type, message } = raced.dialog;
      return {
        ...(await pageState(ctx, tabId, call.action)),
        navigated: ctx.nav.navigatedSince(tabId, mark),
        dialog: { type, message },
      };
    }
    const asked = await page.askedToNavigate();
    const navigated = await settleNavigation(ctx, call, tabId, mark, asked ? REQUESTED_NAVIGATION_MS : 0);
    const left = Math.max(0, call.deadline - ctx.now());
    const openedTabs = await ctx.opened.since(tabId, opening, Math.min(left, OPENED_CAP_MS));
    const state = await pageState(ctx, tabId, call.action);
    return { ...state, navigated, ...(openedTabs.length > 0 ? { openedTabs } : {}) };
  } catch (error) {
    if (!(await closedUnder(ctx, tabId, error))) throw error;
    return { url: page.mark?.url ?? '', title: '', navigated: false };
  }
}

async function trusted(
  ctx: DriverContext,
  call: ActionCall,
  action: TrustedCall,
  synthetic: () => Promise<Effects>,
): Promise<Effects> {
  const tabId = tabIdOf(call);
  const attached = await ctx.dialogs.attach(tabId);
  if (!attached.ok) {
    ctx.log.warn('input_synthetic', { tabId, action: call.action, reason: attached.reason });
    return { ...(await synthetic()), input: 'synthetic' };
  }
  await assertNoDialog(ctx, tabId, call.action);
  const page = new DebuggerPage(ctx, call, tabId);
  const steps = trustedSteps(
    framedTrustedPage(page, extensionFramePages(ctx.chrome, ctx.page, tabId)),
    action,
  );
  await steps.prepare();
  if (page.replayed) {
    // A previous life of the worker got this far and may have sent the input: it is not sent twice.
    ctx.log.info('trusted_input_not_repeated', { tabId, id: call.request.id });
    return { ...(await pageState(ctx, tabId, call.action)), navigated: false };
  }
  try {
    return await act(ctx, call, tabId, page, steps);
  } catch (error) {
    if (!(error instanceof InputRefused)) throw error;
    ctx.log.warn('input_synthetic', { tabId, action: call.action, reason: error.message });
    return { ...(await synthetic()), input: 'synthetic' };
  }
}

export const TRUSTED_ACTIONS = {
  click: {
    run: (ctx, params, call) =>
      trusted(ctx, call, { action: 'click', params }, () => PAGE_ACTIONS.click.run(ctx, params, call)),
  },
  hover: {
    run: (ctx, params, call) =>
      trusted(ctx, call, { action: 'hover', params }, () => PAGE_ACTIONS.hover.run(ctx, params, call)),
  },
  type: {
    run: (ctx, params, call) =>
      trusted(ctx, call, { action: 'type', params }, () => PAGE_ACTIONS.type.run(ctx, params, call)),
  },
  press: {
    run: (ctx, params, call) =>
      trusted(ctx, call, { action: 'press', params }, () => PAGE_ACTIONS.press.run(ctx, params, call)),
  },
  // No page script stands in for a drag: without the debugger it is refused, never half done.
  drag: {
    run: (ctx, params, call) =>
      trusted(ctx, call, { action: 'drag', params }, () =>
        fail('UNSUPPORTED_ACTION', 'drag needs trusted input, which this tab refuses (another debugger?)'),
      ),
  },
  drop: {
    run: (ctx, params, call) =>
      trusted(ctx, call, { action: 'drop', params }, () =>
        fail('UNSUPPORTED_ACTION', 'drop needs trusted input, which this tab refuses (another debugger?)'),
      ),
  },
} satisfies { [A in TrustedCall['action']]: ActionHandler<A> };
