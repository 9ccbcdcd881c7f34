/**
 * Calling the page bundle inside the tab's isolated world: find (or create) the world's context,
 * inject the bundle into a document that predates our setup, and run `__bproxyPage.run(action, params)`
 * with awaitPromise + returnByValue. One round trip per call, human detection included.
 */
import { isErrorCode, makeError, type BproxyError, type HumanWaiver } from '@bproxy/protocol';
import type { PageAction } from '@bproxy/page';
import { isContextGoneError } from '../cdp/errors';
import { ActionFailure, fail } from './failure';
import { failOnHuman } from './human';
import { WORLD_NAME, type PageTab } from './page-tab';

export interface RunPageOptions {
  timeoutMs: number;
  /**
   * Run detectHuman first and fail with HUMAN_REQUIRED when the page needs a person; the kinds the
   * daemon's waiver for this tab (tab.humanWaiver) covers are not checked.
   */
  checkHuman?: boolean;
  /** Safe to run again when a navigation replaced the document mid-call (reads, waits). */
  retryOnNavigation?: boolean;
}

// Runs in the page's isolated world; plain JS because it is sent as text.
const CALL = `async function (action, params, human) {
  const api = globalThis.__bproxyPage;
  if (!api) return { missing: true };
  if (human) {
    const h = await api.run('detectHuman', human);
    if (h && h.ok && h.data && h.data.required === true) return { human: h.data };
  }
  return { answer: await api.run(action, params) };
}`;

type CallOutcome =
  | { missing: true }
  | { human: unknown }
  | { answer: { ok: true; data: unknown } | { ok: false; error: BproxyError } };

export async function runPage(
  tab: PageTab,
  action: PageAction,
  params: unknown,
  options: RunPageOptions,
): Promise<unknown> {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    const timeoutMs = Math.max(1, options.timeoutMs - (Date.now() - started));
    try {
      const human = options.checkHuman === true ? humanParams(tab) : null;
      const outcome = await callOnce(tab, action, params, human, timeoutMs);
      if ('human' in outcome) {
        failOnHuman(outcome.human);
        fail('DRIVER_ERROR', `${action}: the page's human check answered outside the contract`);
      }
      if ('missing' in outcome) throw new Error('the page bundle did not install itself');
      if (outcome.answer.ok) return outcome.answer.data;
      throw new ActionFailure(checkedError(outcome.answer.error, action));
    } catch (error) {
      if (!isContextGoneError(error)) throw error;
      tab.contextId = undefined;
      if (options.retryOnNavigation !== true || attempt >= 3) {
        fail('DRIVER_ERROR', `${action}: the page navigated while the action ran; read the page again`);
      }
    }
  }
}

/** detectHuman's params for the check before an action: the tab's waiver, if a person resumed for it. */
function humanParams(tab: PageTab): { waived?: HumanWaiver } {
  return tab.humanWaiver === undefined ? {} : { waived: tab.humanWaiver };
}

async function callOnce(
  tab: PageTab,
  action: PageAction,
  params: unknown,
  human: { waived?: HumanWaiver } | null,
  timeoutMs: number,
): Promise<CallOutcome> {
  const contextId = await isolatedContext(tab, timeoutMs);
  let outcome = await call(tab, contextId, action, params, human, timeoutMs);
  if ('missing' in outcome) {
    const injected = await tab.session.send(
      'Runtime.evaluate',
      { expression: tab.bundle, contextId },
      timeoutMs,
    );
    if (injected.exceptionDetails !== undefined) {
      fail('DRIVER_ERROR', `the page bundle failed to load: ${describeException(injected.exceptionDetails)}`);
    }
    outcome = await call(tab, contextId, action, params, human, timeoutMs);
  }
  return outcome;
}

async function call(
  tab: PageTab,
  contextId: number,
  action: string,
  params: unknown,
  human: { waived?: HumanWaiver } | null,
  timeoutMs: number,
): Promise<CallOutcome> {
  const reply = await tab.session.send(
    'Runtime.callFunctionOn',
    {
      functionDeclaration: CALL,
      executionContextId: contextId,
      arguments: [{ value: action }, { value: params }, { value: human }],
      returnByValue: true,
      awaitPromise: true,
    },
    timeoutMs,
  );
  if (reply.exceptionDetails !== undefined)
    fail('DRIVER_ERROR', `${action}: page script threw ${describeException(reply.exceptionDetails)}`);
  const value = reply.result.value;
  if (value === null || typeof value !== 'object')
    fail('DRIVER_ERROR', `${action}: the page answered outside the contract`);
  return value as CallOutcome;
}

async function isolatedContext(tab: PageTab, timeoutMs: number): Promise<number> {
  if (tab.contextId !== undefined) return tab.contextId;
  const created = await tab.session.send(
    'Page.createIsolatedWorld',
    { frameId: tab.mainFrameId, worldName: WORLD_NAME, grantUniveralAccess: true },
    timeoutMs,
  );
  tab.contextId = created.executionContextId;
  return created.executionContextId;
}

/** A page answer is a trust boundary too: anything that is not a catalogue error becomes DRIVER_ERROR. */
function checkedError(error: BproxyError, action: string): BproxyError {
  if (
    error !== null &&
    typeof error === 'object' &&
    isErrorCode(error.code) &&
    typeof error.message === 'string'
  ) {
    const extra: { reason?: string; details?: Record<string, unknown> } = {};
    if (typeof error.reason === 'string') extra.reason = error.reason;
    if (error.details !== null && typeof error.details === 'object') extra.details = error.details;
    return makeError(error.code, error.message.slice(0, 4000), extra);
  }
  return makeError('DRIVER_ERROR', `${action}: the page answered an error outside the catalogue`);
}

function describeException(details: { text: string; exception?: { description?: string } }): string {
  return (details.exception?.description ?? details.text).split('\n')[0] ?? details.text;
}

/** Calls a small function of our own (sent as text) in the isolated world, answering its value. */
export async function callInWorld(
  tab: PageTab,
  functionDeclaration: string,
  args: unknown[],
  timeoutMs: number,
): Promise<unknown> {
  const contextId = await isolatedContext(tab, timeoutMs);
  const reply = await tab.session.send(
    'Runtime.callFunctionOn',
    {
      functionDeclaration,
      executionContextId: contextId,
      arguments: args.map((value) => ({ value })),
      returnByValue: true,
      awaitPromise: true,
    },
    timeoutMs,
  );
  if (reply.exceptionDetails !== undefined)
    fail('DRIVER_ERROR', `driver script threw ${describeException(reply.exceptionDetails)}`);
  return reply.result.value;
}

/** HUMAN_REQUIRED when the page now in the tab needs a person (after a navigation: nothing is waived). */
export async function failIfHuman(tab: PageTab, timeoutMs: number): Promise<void> {
  failOnHuman(await runPage(tab, 'detectHuman', {}, { timeoutMs, retryOnNavigation: true }));
}
