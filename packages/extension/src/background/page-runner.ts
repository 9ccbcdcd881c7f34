/**
 * Runs the page script (packages/page, shipped as page.js) in a tab's main frame through
 * chrome.scripting: injects the bundle once per document (the bundle keeps its element refs on the
 * document's isolated-world global), then calls `__bproxyPage.run(action, params)`.
 *
 * Two things ride along in the same call, to save a round trip and a race:
 * - the human check (`detectHuman`) runs first when asked, and the action is skipped when it fires;
 * - actions that change the page are recorded in a per-document ledger keyed by request id, so an
 *   action re-sent after the worker died mid-way joins or returns the first run instead of acting twice.
 */
import type { DetectHumanResult, PageAction, PageResult } from '@bproxy/page';
import { HumanDetectionSchema, type HumanWaiver } from '@bproxy/protocol';
import type { ChromeApi } from '../chrome-api';
import { DriverFailure, fail, fromPageError, fromPlatformError } from './errors';

export const PAGE_SCRIPT_FILE = 'page.js';

export interface PageCall {
  action: PageAction;
  params: unknown;
  /** Record in the page ledger under this id (actions that change the page). */
  ledgerId?: string;
  /** Run `detectHuman` first and refuse with HUMAN_REQUIRED when it fires. */
  checkHuman?: boolean;
  /** Kinds of human check a person resumed for on this tab's page (the forwarded target's waiver). */
  humanWaiver?: HumanWaiver;
}

type InPageAnswer = { missing: true } | { human: PageResult } | { result: PageResult };

/**
 * Executed inside the page, serialized by chrome.scripting: it must not reference anything outside
 * its own body.
 */
async function inPage(
  action: string,
  params: unknown,
  ledgerId: string | null,
  human: { waived?: unknown } | null,
): Promise<InPageAnswer> {
  type Api = { run(action: string, params: unknown): Promise<PageResult> };
  const scope = globalThis as unknown as {
    __bproxyPage?: Api;
    __bproxyLedger?: Map<string, Promise<PageResult>>;
  };
  const page = scope.__bproxyPage;
  if (!page) return { missing: true };
  if (human !== null) {
    const found = await page.run('detectHuman', human);
    const data = found.ok ? (found.data as Record<string, unknown> | null) : null;
    if (data && data.required === true) return { human: found };
  }
  if (ledgerId === null) return { result: await page.run(action, params) };
  const ledger = scope.__bproxyLedger ?? new Map<string, Promise<PageResult>>();
  scope.__bproxyLedger = ledger;
  let running = ledger.get(ledgerId);
  if (!running) {
    running = page.run(action, params);
    ledger.set(ledgerId, running);
    if (ledger.size > 100) {
      const oldest = ledger.keys().next();
      if (!oldest.done) ledger.delete(oldest.value);
    }
  }
  return { result: await running };
}

function humanReason(answer: PageResult): string {
  if (answer.ok && answer.data && typeof answer.data === 'object') {
    const reason = (answer.data as Record<string, unknown>).reason;
    if (typeof reason === 'string' && reason !== '') return reason;
  }
  return 'the page needs a human (CAPTCHA, login wall or challenge)';
}

/** HUMAN_REQUIRED with the reason and what was found (kind, document, URL) for the daemon's resume. */
function failHuman(answer: PageResult): never {
  const reason = humanReason(answer);
  const data = (answer.ok ? answer.data : null) as Partial<Record<keyof DetectHumanResult, unknown>> | null;
  const found = HumanDetectionSchema.safeParse({
    kind: data?.kind,
    document: data?.document,
    url: data?.url,
  });
  fail('HUMAN_REQUIRED', reason, { reason, ...(found.success ? { details: found.data } : {}) });
}

export class PageRunner {
  constructor(private readonly chrome: ChromeApi) {}

  /** Runs a page action; resolves with its data, throws DriverFailure with the page's or a mapped error. */
  async run(tabId: number, call: PageCall): Promise<unknown> {
    let answer = await this.invoke(tabId, call);
    if ('missing' in answer) {
      await this.inject(tabId, call.action);
      answer = await this.invoke(tabId, call);
      if ('missing' in answer) fail('DRIVER_ERROR', `${call.action}: the page script did not install itself`);
    }
    if ('human' in answer) failHuman(answer.human);
    const result = answer.result;
    if (!result.ok) throw new DriverFailure(fromPageError(result.error, call.action));
    return result.data;
  }

  /** Only the human check, after a navigation (nothing is waived): HUMAN_REQUIRED when it fires. */
  async assertNoHuman(tabId: number): Promise<void> {
    let data: unknown;
    try {
      data = await this.run(tabId, { action: 'detectHuman', params: {} });
    } catch (error) {
      // A page we may not script (an error page, chrome://) cannot hold a CAPTCHA we could see.
      if (error instanceof DriverFailure && error.error.code === 'PAGE_NOT_SCRIPTABLE') return;
      throw error;
    }
    if ((data as Partial<DetectHumanResult> | null)?.required === true) failHuman({ ok: true, data });
  }

  private async inject(tabId: number, action: string): Promise<void> {
    try {
      await this.chrome.scripting.executeScript({
        target: { tabId, frameIds: [0] },
        files: [PAGE_SCRIPT_FILE],
      });
    } catch (error) {
      throw new DriverFailure(fromPlatformError(error, action));
    }
  }

  private async invoke(tabId: number, call: PageCall): Promise<InPageAnswer> {
    let results;
    try {
      results = await this.chrome.scripting.executeScript({
        target: { tabId, frameIds: [0] },
        func: inPage,
        args: [
          call.action,
          call.params ?? {},
          call.ledgerId ?? null,
          call.checkHuman === true
            ? call.humanWaiver === undefined
              ? {}
              : { waived: call.humanWaiver }
            : null,
        ],
      });
    } catch (error) {
      throw new DriverFailure(fromPlatformError(error, call.action));
    }
    const answer = results[0]?.result as InPageAnswer | undefined;
    if (!answer || typeof answer !== 'object') {
      fail(
        'DRIVER_ERROR',
        `${call.action}: the page gave no answer (the document may have been replaced while it ran)`,
      );
    }
    return answer;
  }
}
