/**
 * Executes one forwarded request on the driver kit: the request checked (checkCall), the handler run
 * under the request's deadline and its browser's lifetime, the answer checked against the
 * driver-result schema. Always resolves with a response message; never throws.
 */
import {
  DriverFailure,
  aroundAction,
  checkCall,
  checkResult,
  deadlineError,
  fail,
  runHandler,
  withDeadline,
} from '@bproxy/driver';
import {
  actionDef,
  checkAgentUrl,
  driverFlags,
  type BproxyForwardedRequest,
  type DriverResponseMessage,
} from '@bproxy/protocol';
import type { ActionContext } from '../actions/context';
import { HANDLERS } from '../actions/handlers';
import { CdpClosedError } from '../cdp/errors';
import type { ConnectedBrowser } from './connected-browser';
import { dialogOpen } from './effects';
import { toBproxyError } from './failure';
import type { DriverLog } from './driver-log';
import type { PageTab } from './page-tab';

export interface ExecutorDeps {
  log: DriverLog;
  /** The current browser, started (or reconnected) on demand. */
  ensureBrowser(): Promise<ConnectedBrowser>;
  /** The current browser if connected; never starts one. */
  currentBrowser(): ConnectedBrowser | undefined;
  /** Whether a tab id belonged to a browser that went away (BROWSER_DISCONNECTED rather than TAB_NOT_FOUND). */
  wasLost(tabId: number): boolean;
  allocateTabId(): number;
  /** file: URLs pass the URL check (a launched browser started with --allow-file-urls). */
  allowFileUrls: boolean;
}

const DEADLINE_SLACK_MS = 20;

export async function execute(
  request: BproxyForwardedRequest,
  deps: ExecutorDeps,
): Promise<DriverResponseMessage> {
  const started = Date.now();
  let response: DriverResponseMessage;
  try {
    const { data, news } = await run(request, deps);
    response = { type: 'response', id: request.id, ok: true, data, ...(news === undefined ? {} : { news }) };
  } catch (error) {
    // Waits and CDP calls are bounded by the time left, so at the deadline they fail on their own
    // timers, a hair before the deadline race: report those as the timeout they are.
    const late = Date.now() >= request.deadline - DEADLINE_SLACK_MS && !(error instanceof DriverFailure);
    response = {
      type: 'response',
      id: request.id,
      ok: false,
      error: late ? deadlineError(request.action) : toBproxyError(error, request.action),
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

async function run(
  request: BproxyForwardedRequest,
  deps: ExecutorDeps,
): Promise<{ data: unknown; news?: string }> {
  const call = checkCall(request);
  const { action, deadline } = call;
  const flags = driverFlags(action);
  const remaining = (): number => Math.max(1, deadline - Date.now());
  // The daemon checked the URL; checked again before the browser is asked, whatever sent the request.
  if (action === 'navigate' || action === 'tab.open') {
    const url = (call.params as { url?: unknown }).url;
    const verdict = checkAgentUrl(typeof url === 'string' ? url : '', { allowFile: deps.allowFileUrls });
    if (!verdict.ok) fail('URL_NOT_ALLOWED', verdict.reason);
  }

  let browser: ConnectedBrowser | undefined;
  let tab: PageTab | undefined;
  // checkCall made sure a tab action names its tab.
  if (actionDef(action).routing === 'tab' && call.tabId !== null) {
    const tabId = call.tabId;
    browser = deps.currentBrowser();
    tab = browser?.tab(tabId);
    if (tab === undefined) {
      if (deps.wasLost(tabId)) fail('BROWSER_DISCONNECTED', 'the browser of this tab went away');
      fail('TAB_NOT_FOUND', 'this tab is not open in the browser any more');
    }
    if (tab.dialog !== undefined && flags.withDialog !== true) dialogOpen(tab.dialog);
    // The daemon serializes requests per tab, so the tab carries this request's waiver while it runs.
    tab.humanWaiver = request.target?.humanWaiver;
  } else if (flags.startsBrowser === true) {
    browser = await withDeadline(deps.ensureBrowser(), deadline, action);
  }

  const ctx: ActionContext = {
    tab: () => tab ?? fail('INTERNAL_ERROR', `${action} ran without a tab`),
    browser: () => browser ?? fail('INTERNAL_ERROR', `${action} ran without a browser`),
    remaining,
    allocateTabId: deps.allocateTabId,
    log: deps.log,
  };
  // An action on the page answers with the console errors and failed requests it caused.
  const handled = aroundAction(tab?.log ?? null, action, deadline, () => runHandler(HANDLERS, ctx, call));
  const races: Promise<unknown>[] = [handled];
  if (browser !== undefined) {
    races.push(
      browser.disconnected.catch((error: unknown) => {
        throw new CdpClosedError(error instanceof Error ? error.message : String(error));
      }),
    );
  }
  const { data, news } = (await withDeadline(Promise.race(races), deadline, action)) as Awaited<
    typeof handled
  >;
  return { data: checkResult(action, data), ...(news === undefined ? {} : { news }) };
}
