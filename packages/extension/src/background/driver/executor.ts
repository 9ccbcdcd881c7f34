/**
 * Executes one forwarded request on the driver kit and builds its answer: the envelope validated with
 * the protocol schema, exactly once per request id (executed-table.ts), never after its deadline,
 * bounded by it while running, params and result checked by the kit. Which handler runs is decided by
 * the action name alone, from a table that covers every forwarded action.
 */
import {
  aroundAction,
  answerOnce,
  checkCall,
  checkResult,
  DriverFailure,
  messageOf,
  runHandler,
  withDeadline,
  type ExecutedRequests,
} from '@bproxy/driver';
import {
  BproxyForwardedRequestSchema,
  formatIssues,
  makeError,
  type BproxyError,
  type BproxyForwardedRequest,
  type DriverResponseMessage,
} from '@bproxy/protocol';
import type { DriverContext, HandlerTable } from './context';
import { FILES_ACTIONS } from './files-actions';
import { dialog, debugLog } from './misc-actions';
import { NAVIGATION_ACTIONS } from './navigation-actions';
import { withNetworkIdleWait } from './network-idle-wait';
import {
  consoleRead,
  networkGetRead,
  networkHarRead,
  networkRead,
  withConsoleErrorWait,
} from './observe-actions';
import { PAGE_ACTIONS } from './page-actions';
import { screenshot } from './screenshot';
import { STATE_ACTIONS } from './state-actions';
import { TAB_ACTIONS } from './tab-actions';
import { TRUSTED_ACTIONS } from './trusted-actions';

export const HANDLERS: HandlerTable = {
  ...TAB_ACTIONS,
  ...NAVIGATION_ACTIONS,
  ...PAGE_ACTIONS,
  ...TRUSTED_ACTIONS,
  ...FILES_ACTIONS,
  ...STATE_ACTIONS,
  wait: withNetworkIdleWait(withConsoleErrorWait(PAGE_ACTIONS.wait)),
  screenshot,
  dialog,
  console: consoleRead,
  network: networkRead,
  'network.get': networkGetRead,
  'network.har': networkHarRead,
  'debug.log': debugLog,
};

function errorResponse(id: string, error: BproxyError): DriverResponseMessage {
  return { type: 'response', id, ok: false, error };
}

export class Executor {
  constructor(
    private readonly ctx: DriverContext,
    private readonly table: ExecutedRequests,
    private readonly handlers: HandlerTable = HANDLERS,
  ) {}

  /** The answer to a forwarded request, or null when it carries no id we could answer to. */
  async handle(raw: unknown): Promise<DriverResponseMessage | null> {
    const parsed = BproxyForwardedRequestSchema.safeParse(raw);
    if (!parsed.success) {
      const id = raw && typeof raw === 'object' ? (raw as { id?: unknown }).id : undefined;
      this.ctx.log.warn('request_rejected', { reason: 'envelope outside the protocol' });
      if (typeof id !== 'string') return null;
      return errorResponse(id, makeError('BAD_REQUEST', `request: ${formatIssues(parsed.error, raw)}`));
    }
    const request = parsed.data;
    const outcome = await answerOnce(this.table, request, (resumed) => this.perform(request, resumed), {
      now: this.ctx.now,
      // Never late: the daemon has already answered TIMEOUT to the agent, who may act on that.
      onLate: () => this.ctx.log.info('request_late', { id: request.id, action: request.action }),
    });
    if (outcome.replayed) this.ctx.log.info('request_replayed', { id: request.id, action: request.action });
    return outcome.response;
  }

  private async perform(request: BproxyForwardedRequest, resumed: boolean): Promise<DriverResponseMessage> {
    const started = this.ctx.now();
    const { id, action } = request;
    const response = await this.execute(request, resumed).then(
      ({ data, news }): DriverResponseMessage => ({
        type: 'response',
        id,
        ok: true,
        data,
        ...(news === undefined ? {} : { news }),
      }),
      (error: unknown) => errorResponse(id, this.toWireError(error, action)),
    );
    this.ctx.log.info('request_done', {
      id,
      action,
      ok: response.ok,
      elapsedMs: this.ctx.now() - started,
      ...(response.ok ? {} : { code: response.error.code }),
      ...(resumed ? { resumed } : {}),
    });
    return response;
  }

  private async execute(
    request: BproxyForwardedRequest,
    resumed: boolean,
  ): Promise<{ data: unknown; news?: string }> {
    const call = checkCall(request, resumed);
    if (call.tabId !== null) this.ctx.tabs.add(call.tabId);
    // An action on the page answers with the console errors and failed requests it caused.
    const log =
      call.tabId !== null && this.ctx.observer.has(call.tabId) ? this.ctx.observer.log(call.tabId) : null;
    const tabId = call.tabId;
    if (tabId !== null) await this.ctx.idle.begin(tabId);
    const { data, news } = await withDeadline(
      aroundAction(
        log,
        call.action,
        call.deadline,
        () => runHandler(this.handlers, this.ctx, call),
        this.ctx.now,
      ),
      call.deadline,
      call.action,
      this.ctx.now,
    ).finally(() => {
      if (tabId !== null) this.ctx.idle.end(tabId);
    });
    return { data: checkResult(call.action, data), ...(news === undefined ? {} : { news }) };
  }

  private toWireError(error: unknown, action: string): BproxyError {
    if (error instanceof DriverFailure) return error.error;
    this.ctx.log.error('handler_crashed', { action, error: messageOf(error) });
    return makeError('DRIVER_ERROR', `${action}: ${messageOf(error)}`);
  }
}
