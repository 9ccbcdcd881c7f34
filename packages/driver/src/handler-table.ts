/**
 * The table of action handlers a driver registers, and the checks every driver makes around a handler.
 * The table is a mapped type over the protocol's forwarded actions: adding an action to the protocol
 * fails to compile until every driver handles it. Around the handler: the action must be a driver's
 * at all, its params must match the forwarded schema, a tab action must name its tab, a request a
 * previous driver life started runs again only if the action is resumable, and the result must match
 * the driver-result schema before it leaves.
 */
import {
  actionDef,
  driverFlags,
  driverResultSchema,
  formatIssues,
  forwardedParamsSchema,
  isForwardedAction,
  parseDriverValue,
  type BproxyForwardedRequest,
  type DriverResult,
  type ForwardedAction,
  type ForwardedParams,
} from '@bproxy/protocol';
import { DriverFailure, fail } from './failure';

/** What a handler learns about its request besides the params. */
export interface HandlerCall {
  readonly request: BproxyForwardedRequest;
  readonly action: ForwardedAction;
  /** target.tabId; null for the actions that address the browser rather than a tab (tab.open, debug.log). */
  readonly tabId: number | null;
  /** Epoch milliseconds. */
  readonly deadline: number;
  /** A previous life of the driver started this request and died before answering (see ExecutedRequests). */
  readonly resumed: boolean;
}

/** One action's handler: `Ctx` is whatever the driver hands its handlers (browser, tab, trackers). */
export interface ActionHandler<Ctx, A extends ForwardedAction> {
  run(ctx: Ctx, params: ForwardedParams<A>, call: HandlerCall): Promise<DriverResult<A>>;
}

/** Every forwarded action, each with its handler. */
export type HandlerTable<Ctx> = { readonly [A in ForwardedAction]: ActionHandler<Ctx, A> };

/** A request that passed the checks: its params are the forwarded schema's output. */
export interface CheckedCall extends HandlerCall {
  readonly params: unknown;
}

/** Checks a forwarded request before any handler runs; throws a DriverFailure saying what is wrong. */
export function checkCall(request: BproxyForwardedRequest, resumed = false): CheckedCall {
  const action = request.action;
  if (!isForwardedAction(action))
    fail('UNSUPPORTED_ACTION', `${action}: handled by the daemon, not by a browser driver`);
  const params = forwardedParamsSchema(action).safeParse(request.params);
  if (!params.success) fail('BAD_REQUEST', formatIssues(params.error, request.params, 'params'));
  const tabId = request.target?.tabId ?? null;
  if (actionDef(action).routing === 'tab' && tabId === null)
    fail('BAD_REQUEST', `target.tabId: ${action} addresses a tab and none was given`);
  if (resumed && !driverFlags(action).resumable) {
    fail(
      'DRIVER_ERROR',
      `${action}: the browser driver restarted while this ran; it may have taken effect, so it was not repeated`,
    );
  }
  return { request, action, params: params.data, tabId, deadline: request.deadline, resumed };
}

/** Runs the table's handler for a checked call. */
export function runHandler<Ctx>(table: HandlerTable<Ctx>, ctx: Ctx, call: CheckedCall): Promise<unknown> {
  // TypeScript cannot tie the entry for a union of actions to that action's params: checkCall parsed
  // them with this very action's schema, so the one cast lives here.
  const handler = table[call.action] as ActionHandler<Ctx, ForwardedAction>;
  return handler.run(ctx, call.params as never, call);
}

/** The handler's result, checked against the action's driver-result schema before it leaves. */
export function checkResult(action: ForwardedAction, data: unknown): unknown {
  const checked = parseDriverValue(driverResultSchema(action), data, `${action} result`);
  if (!checked.ok) throw new DriverFailure(checked.error);
  return checked.value;
}
