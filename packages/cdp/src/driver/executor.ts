/**
 * Executes one forwarded request: params checked against the forwarded schema, the handler run under
 * the request's deadline and its browser's lifetime, the answer checked against the driver-result
 * schema. Always resolves with a response message; never throws.
 */
import {
  actionDef,
  driverResultSchema,
  forwardedParamsSchema,
  formatIssues,
  makeError,
  parseDriverValue,
  type BproxyError,
  type BproxyForwardedRequest,
  type DriverResponseMessage,
} from '@bproxy/protocol';
import type { ActionContext, DriverAction, HandlerDef } from '../actions/context';
import { HANDLERS } from '../actions/handlers';
import { CdpClosedError } from '../cdp/errors';
import type { BrowserSession } from './browser-session';
import { dialogOpen } from './effects';
import { ActionFailure, fail, toBproxyError } from './failure';
import type { DriverLog } from './driver-log';
import type { PageTab } from './page-tab';

export interface ExecutorDeps {
  log: DriverLog;
  /** The current browser, started (or reconnected) on demand. */
  ensureBrowser(): Promise<BrowserSession>;
  /** The current browser if connected; never starts one. */
  currentBrowser(): BrowserSession | undefined;
  /** Whether a tab id belonged to a browser that went away (BROWSER_DISCONNECTED rather than TAB_NOT_FOUND). */
  wasLost(tabId: number): boolean;
  allocateTabId(): number;
}

const DEADLINE_SLACK_MS = 20;

export async function execute(
  request: BproxyForwardedRequest,
  deps: ExecutorDeps,
): Promise<DriverResponseMessage> {
  const started = Date.now();
  let response: DriverResponseMessage;
  try {
    const data = await run(request, deps);
    const checked = parseDriverValue(driverResultSchema(request.action), data, `${request.action} result`);
    response = checked.ok
      ? { type: 'response', id: request.id, ok: true, data: checked.value }
      : { type: 'response', id: request.id, ok: false, error: checked.error };
  } catch (error) {
    // Waits and CDP calls are bounded by the time left, so at the deadline they fail on their own
    // timers, a hair before the deadline race: report those as the timeout they are.
    const late = Date.now() >= request.deadline - DEADLINE_SLACK_MS && !(error instanceof ActionFailure);
    response = {
      type: 'response',
      id: request.id,
      ok: false,
      error: late ? timeoutError(request.action) : toBproxyError(error, request.action),
    };
  }
  const fields = {
    id: request.id,
    action: request.action,
    elapsedMs: Date.now() - started,
    ...(request.target === undefined ? {} : { tabId: request.target.tabId }),
  };
  if (response.ok) deps.log.write('info', 'request done', fields);
  else
    deps.log.write('warn', 'request failed', {
      ...fields,
      code: response.error.code,
      message: response.error.message,
    });
  return response;
}

function isDriverAction(action: string): action is DriverAction {
  return Object.prototype.hasOwnProperty.call(HANDLERS, action);
}

async function run(request: BproxyForwardedRequest, deps: ExecutorDeps): Promise<unknown> {
  const action = request.action;
  if (actionDef(action).routing === 'local' || !isDriverAction(action)) {
    fail('UNSUPPORTED_ACTION', `${action} is handled by the daemon, not by a browser driver`);
  }
  const parsed = forwardedParamsSchema(action).safeParse(request.params);
  if (!parsed.success) fail('BAD_REQUEST', formatIssues(parsed.error, request.params, 'params'));
  const handler = HANDLERS[action] as HandlerDef<DriverAction>;
  const deadline = request.deadline;
  const remaining = (): number => Math.max(1, deadline - Date.now());

  let browser: BrowserSession | undefined;
  let tab: PageTab | undefined;
  if (handler.needs === 'tab') {
    const tabId = request.target?.tabId;
    if (tabId === undefined)
      fail('BAD_REQUEST', `target.tabId: ${action} addresses a tab and none was given`);
    browser = deps.currentBrowser();
    tab = browser?.tab(tabId);
    if (tab === undefined) {
      if (deps.wasLost(tabId)) fail('BROWSER_DISCONNECTED', 'the browser of this tab went away');
      fail('TAB_NOT_FOUND', 'this tab is not open in the browser any more');
    }
    if (tab.dialog !== undefined && handler.allowedWithDialog !== true) dialogOpen(tab.dialog);
    // The daemon serializes requests per tab, so the tab carries this request's waiver while it runs.
    tab.humanWaiver = request.target?.humanWaiver;
  } else if (handler.needs === 'browser') {
    browser = await withDeadline(deps.ensureBrowser(), deadline, action);
  }

  const ctx: ActionContext = {
    tab: () => tab ?? fail('INTERNAL_ERROR', `${action} ran without a tab`),
    browser: () => browser ?? fail('INTERNAL_ERROR', `${action} ran without a browser`),
    remaining,
    allocateTabId: deps.allocateTabId,
    log: deps.log,
  };
  const work = handler.run(ctx, parsed.data as never);
  const races: Promise<unknown>[] = [work];
  if (browser !== undefined) {
    races.push(
      browser.disconnected.catch((error: unknown) => {
        throw new CdpClosedError(error instanceof Error ? error.message : String(error));
      }),
    );
  }
  return withDeadline(Promise.race(races), deadline, action);
}

/** Never run late: whatever is still going at the deadline is answered with TIMEOUT. */
async function withDeadline<T>(work: Promise<T>, deadline: number, action: string): Promise<T> {
  work.catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ActionFailure(timeoutError(action))),
      Math.max(0, deadline - Date.now()),
    );
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

function timeoutError(action: string): BproxyError {
  return makeError('TIMEOUT', `${action} did not finish before its deadline`);
}
