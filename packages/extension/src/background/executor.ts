/**
 * Executes one forwarded request and builds its answer: envelope and params validated with the
 * protocol schemas, exactly once per request id (executed-table.ts), never after its deadline, bounded
 * by it while running, and the driver result validated before it leaves. Which handler runs is decided
 * by the action name alone.
 */
import {
  BproxyForwardedRequestSchema,
  actionDef,
  driverResultSchema,
  forwardedParamsSchema,
  formatIssues,
  isActionName,
  makeError,
  parseDriverValue,
  type ActionName,
  type BproxyError,
  type BproxyForwardedRequest,
  type DriverResponseMessage,
} from '@bproxy/protocol';
import type { ActionHandler, DriverContext } from './context';
import { DriverFailure, messageOf, withDeadline } from './errors';
import type { ExecutedTable } from './executed-table';
import { dialog, debugLog } from './misc-actions';
import { NAVIGATION_ACTIONS } from './navigation-actions';
import { PAGE_ACTIONS } from './page-actions';
import { screenshot } from './screenshot';
import { TAB_ACTIONS } from './tab-actions';

export const HANDLERS: Partial<Record<ActionName, ActionHandler>> = {
  ...TAB_ACTIONS,
  ...NAVIGATION_ACTIONS,
  ...PAGE_ACTIONS,
  screenshot,
  dialog,
  'debug.log': debugLog,
};

function errorResponse(id: string, error: BproxyError): DriverResponseMessage {
  return { type: 'response', id, ok: false, error };
}

export class Executor {
  constructor(
    private readonly ctx: DriverContext,
    private readonly table: ExecutedTable,
    private readonly handlers: Partial<Record<ActionName, ActionHandler>> = HANDLERS,
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
    const rerunnable = !actionDef(request.action).destructive;
    const outcome = await this.table.run(request.id, (resumed) => this.perform(request, resumed), rerunnable);
    if (outcome.replayed) this.ctx.log.info('request_replayed', { id: request.id, action: request.action });
    return outcome.response;
  }

  private async perform(request: BproxyForwardedRequest, resumed: boolean): Promise<DriverResponseMessage> {
    const started = this.ctx.now();
    const { id, action } = request;
    const response = await this.execute(request, resumed).then(
      (data): DriverResponseMessage => ({ type: 'response', id, ok: true, data }),
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

  private async execute(request: BproxyForwardedRequest, resumed: boolean): Promise<unknown> {
    const { action } = request;
    // Never late: the daemon has already answered TIMEOUT to the agent, who may act on that.
    if (this.ctx.now() >= request.deadline) {
      throw new DriverFailure(
        makeError('TIMEOUT', `${action}: reached the browser after its deadline and was not run`),
      );
    }
    if (!isActionName(action))
      throw new DriverFailure(makeError('UNKNOWN_ACTION', `action: unknown action "${action}"`));
    const handler = this.handlers[action];
    if (!handler)
      throw new DriverFailure(makeError('UNSUPPORTED_ACTION', `${action}: not executed by browser drivers`));
    const params = forwardedParamsSchema(action).safeParse(request.params);
    if (!params.success) {
      throw new DriverFailure(makeError('BAD_REQUEST', formatIssues(params.error, request.params, 'params')));
    }
    const tabId = request.target?.tabId ?? null;
    if (handler.needsTab && tabId === null) {
      throw new DriverFailure(makeError('BAD_REQUEST', `${action}: target.tabId is required`));
    }
    if (resumed && !handler.resumable) {
      throw new DriverFailure(
        makeError(
          'DRIVER_ERROR',
          `${action}: the extension restarted while this ran; it may have taken effect, so it was not repeated`,
        ),
      );
    }
    if (tabId !== null) this.ctx.tabs.add(tabId);
    const call = {
      request,
      action,
      params: params.data as Record<string, unknown>,
      tabId,
      deadline: request.deadline,
      resumed,
    };
    const data = await withDeadline(handler.run(this.ctx, call), request.deadline, action, this.ctx.now);
    const checked = parseDriverValue(driverResultSchema(action), data, `${action} result`);
    if (!checked.ok) throw new DriverFailure(checked.error);
    return checked.value;
  }

  private toWireError(error: unknown, action: string): BproxyError {
    if (error instanceof DriverFailure) return error.error;
    this.ctx.log.error('handler_crashed', { action, error: messageOf(error) });
    return makeError('DRIVER_ERROR', `${action}: ${messageOf(error)}`);
  }
}
