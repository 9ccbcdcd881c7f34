/**
 * Runs the page script (packages/page, shipped as page.js) in a tab's main frame through
 * chrome.scripting: injects the bundle once per document (the bundle keeps its element refs on the
 * document's isolated-world global), then calls it through the driver kit's in-page call shim, which
 * also runs the human check and keeps the page ledger (see @bproxy/driver's page-call.ts).
 */
import {
  callPageApi,
  fail,
  failOnHuman,
  isInPageAnswer,
  pageAnswerData,
  pageCallArgs,
  DriverFailure,
  type InPageAnswer,
} from '@bproxy/driver';
import type { PageAction } from '@bproxy/page';
import type { HumanWaiver } from '@bproxy/protocol';
import type { ChromeApi } from '../../chrome-api';
import { fromPlatformError } from './errors';

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
  /** The frame to run in (chrome.scripting's frame id); the main frame (0) unless said. */
  frameId?: number;
}

export class PageRunner {
  constructor(private readonly chrome: ChromeApi) {}

  /** Runs a page action; resolves with its data, throws DriverFailure with the page's or a mapped error. */
  async run(tabId: number, call: PageCall): Promise<unknown> {
    return (await this.runRecorded(tabId, call)).data;
  }

  /**
   * Like run; `replayed` says the page's ledger already held `call.ledgerId`, so the data is the
   * first run's (a previous life of the worker started this request).
   */
  async runRecorded(tabId: number, call: PageCall): Promise<{ data: unknown; replayed: boolean }> {
    let answer = await this.invoke(tabId, call);
    if ('missing' in answer) {
      await this.inject(tabId, call.action, call.frameId ?? 0);
      answer = await this.invoke(tabId, call);
      if ('missing' in answer) fail('DRIVER_ERROR', `${call.action}: the page script did not install itself`);
    }
    const replayed = 'result' in answer && answer.replayed === true;
    return { data: pageAnswerData(answer, call.action), replayed };
  }

  /** A function of our own (self-contained, like the call shim) in a frame (the main one by default); its value. */
  async callFunction<A extends unknown[]>(
    tabId: number,
    func: (...args: A) => unknown,
    args: A,
    what: string,
    frameId = 0,
  ): Promise<unknown> {
    try {
      const results = await this.chrome.scripting.executeScript({
        target: { tabId, frameIds: [frameId] },
        func: func as (...args: never[]) => unknown,
        args,
      });
      return results[0]?.result;
    } catch (error) {
      throw new DriverFailure(fromPlatformError(error, what));
    }
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
    failOnHuman(data);
  }

  private async inject(tabId: number, action: string, frameId: number): Promise<void> {
    try {
      await this.chrome.scripting.executeScript({
        target: { tabId, frameIds: [frameId] },
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
        target: { tabId, frameIds: [call.frameId ?? 0] },
        func: callPageApi,
        args: pageCallArgs(call.action, call.params, {
          ledgerId: call.ledgerId ?? null,
          checkHuman: call.checkHuman === true,
          ...(call.humanWaiver === undefined ? {} : { humanWaiver: call.humanWaiver }),
        }),
      });
    } catch (error) {
      throw new DriverFailure(fromPlatformError(error, call.action));
    }
    const answer = results[0]?.result;
    if (!isInPageAnswer(answer)) {
      fail(
        'DRIVER_ERROR',
        `${call.action}: the page gave no answer (the document may have been replaced while it ran)`,
      );
    }
    return answer;
  }
}
