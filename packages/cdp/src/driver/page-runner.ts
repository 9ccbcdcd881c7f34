/**
 * Calling the page bundle inside the tab's isolated world: find (or create) the world's context,
 * inject the bundle into a document that predates our setup, and run the kit's in-page call shim with
 * awaitPromise + returnByValue. One round trip per call, human detection included.
 */
import {
  CALL_PAGE_API,
  fail,
  isInPageAnswer,
  pageAnswerData,
  pageCallArgs,
  type InPageAnswer,
} from '@bproxy/driver';
import type { PageAction } from '@bproxy/page';
import { isContextGoneError } from '../cdp/errors';
import type { CdpSession } from '../cdp/session';
import { WORLD_NAME, type PageTab } from './page-tab';

/** The human check's params for the in-page shim (its fourth argument); null skips the check. */
export type HumanParams = ReturnType<typeof pageCallArgs>[3];

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
      const human = pageCallArgs(action, params, {
        checkHuman: options.checkHuman === true,
        ...(tab.humanWaiver === undefined ? {} : { humanWaiver: tab.humanWaiver }),
      })[3];
      const outcome = await callOnce(tab, action, params, human, timeoutMs);
      if ('missing' in outcome) throw new Error('the page bundle did not install itself');
      return pageAnswerData(outcome, action);
    } catch (error) {
      if (!isContextGoneError(error)) throw error;
      tab.contextId = undefined;
      if (options.retryOnNavigation !== true || attempt >= 3) {
        fail('DRIVER_ERROR', `${action}: the page navigated while the action ran; read the page again`);
      }
    }
  }
}

async function callOnce(
  tab: PageTab,
  action: PageAction,
  params: unknown,
  human: HumanParams,
  timeoutMs: number,
): Promise<InPageAnswer> {
  const contextId = await isolatedContext(tab, timeoutMs);
  return callInContext(tab.session, contextId, tab.bundle, action, params, human, timeoutMs);
}

/** The page bundle's `action` in one world's context of `session`, the bundle injected when missing. */
export async function callInContext(
  session: CdpSession,
  contextId: number,
  bundle: string,
  action: string,
  params: unknown,
  human: HumanParams,
  timeoutMs: number,
): Promise<InPageAnswer> {
  let outcome = await call(session, contextId, action, params, human, timeoutMs);
  if ('missing' in outcome) {
    const injected = await session.send('Runtime.evaluate', { expression: bundle, contextId }, timeoutMs);
    if (injected.exceptionDetails !== undefined) {
      fail('DRIVER_ERROR', `the page bundle failed to load: ${describeException(injected.exceptionDetails)}`);
    }
    outcome = await call(session, contextId, action, params, human, timeoutMs);
  }
  return outcome;
}

async function call(
  session: CdpSession,
  contextId: number,
  action: string,
  params: unknown,
  human: HumanParams,
  timeoutMs: number,
): Promise<InPageAnswer> {
  const reply = await session.send(
    'Runtime.callFunctionOn',
    {
      functionDeclaration: CALL_PAGE_API,
      executionContextId: contextId,
      arguments: [action, params ?? {}, null, human].map((value) => ({ value })),
      returnByValue: true,
      awaitPromise: true,
    },
    timeoutMs,
  );
  if (reply.exceptionDetails !== undefined)
    fail('DRIVER_ERROR', `${action}: page script threw ${describeException(reply.exceptionDetails)}`);
  const value = reply.result.value;
  if (!isInPageAnswer(value)) fail('DRIVER_ERROR', `${action}: the page answered outside the contract`);
  return value;
}

export async function isolatedContext(tab: PageTab, timeoutMs: number): Promise<number> {
  if (tab.contextId !== undefined) return tab.contextId;
  const created = await tab.session.send(
    'Page.createIsolatedWorld',
    { frameId: tab.mainFrameId, worldName: WORLD_NAME, grantUniveralAccess: true },
    timeoutMs,
  );
  tab.contextId = created.executionContextId;
  return created.executionContextId;
}

export function describeException(details: { text: string; exception?: { description?: string } }): string {
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
