/**
 * The in-page call shim: how a driver calls the page bundle (packages/page) inside a tab, and how it
 * reads the answer. One function runs in the page — the extension hands it to chrome.scripting, which
 * serializes it; the CDP driver sends its source text to Runtime.callFunctionOn — so it must not
 * reference anything outside its own body.
 *
 * Two things ride along in the same call, to save a round trip and a race: the human check runs first
 * when asked (the action is skipped when it fires), and actions that change the page are recorded in a
 * per-document ledger keyed by request id, so that an action sent again after the driver died mid-way
 * joins or returns the first run instead of acting twice.
 */
import {
  HumanDetectionSchema,
  isErrorCode,
  makeError,
  type BproxyError,
  type HumanDetection,
  type HumanWaiver,
} from '@bproxy/protocol';
import { DriverFailure, fail } from './failure';

/** What the page bundle's `run` answers (packages/page's PageResult, restated: the kit imports the protocol only). */
export type PageAnswer =
  { readonly ok: true; readonly data: unknown } | { readonly ok: false; readonly error: unknown };

export type InPageAnswer =
  /** The bundle is not installed in this document yet: inject it and call again. */
  | { readonly missing: true }
  /** The human check fired: detectHuman's answer (reason, kind, document, URL); the action was not run. */
  | { readonly human: Record<string, unknown> }
  /** `replayed`: the ledger already held this id, so this is the first run's answer, not a new run. */
  | { readonly result: PageAnswer; readonly replayed?: true };

/**
 * Runs in the page. `ledgerId` records the call in the page's ledger; null runs it unrecorded. `human`
 * runs the human check first with these params (the kinds a person waived for this document); null
 * skips it.
 */
export async function callPageApi(
  action: string,
  params: unknown,
  ledgerId: string | null,
  human: { waived?: unknown } | null,
): Promise<InPageAnswer> {
  type Answer = { ok: true; data: unknown } | { ok: false; error: unknown };
  type Api = { run(action: string, params: unknown): Promise<Answer> };
  const scope = globalThis as unknown as {
    __bproxyPage?: Api;
    __bproxyLedger?: Map<string, Promise<Answer>>;
  };
  const page = scope.__bproxyPage;
  if (!page) return { missing: true };
  if (human !== null) {
    const found = await page.run('detectHuman', human);
    const data =
      found.ok && typeof found.data === 'object' && found.data !== null
        ? (found.data as Record<string, unknown>)
        : null;
    if (data !== null && data.required === true) return { human: data };
  }
  if (ledgerId === null) return { result: await page.run(action, params) };
  const ledger = scope.__bproxyLedger ?? new Map<string, Promise<Answer>>();
  scope.__bproxyLedger = ledger;
  const recorded = ledger.get(ledgerId);
  if (recorded !== undefined) return { result: await recorded, replayed: true };
  const running = page.run(action, params);
  ledger.set(ledgerId, running);
  if (ledger.size > 100) {
    const oldest = ledger.keys().next();
    if (!oldest.done) ledger.delete(oldest.value);
  }
  return { result: await running };
}

/** callPageApi as a function declaration, for drivers that send source text (CDP). */
export const CALL_PAGE_API = callPageApi.toString();

/** The arguments of callPageApi, in order, for drivers that pass them as a list. */
export function pageCallArgs(
  action: string,
  params: unknown,
  options: { ledgerId?: string | null; checkHuman?: boolean; humanWaiver?: HumanWaiver } = {},
): [string, unknown, string | null, { waived?: HumanWaiver } | null] {
  const human =
    options.checkHuman !== true
      ? null
      : options.humanWaiver === undefined
        ? {}
        : { waived: options.humanWaiver };
  return [action, params ?? {}, options.ledgerId ?? null, human];
}

/** An answer that came back from the page is a trust boundary: its shape is checked before use. */
export function isInPageAnswer(value: unknown): value is InPageAnswer {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  if (v.missing === true) return true;
  if (typeof v.human === 'object' && v.human !== null) return true;
  const result = v.result as Record<string, unknown> | null | undefined;
  return typeof result === 'object' && result !== null && typeof result.ok === 'boolean';
}

/**
 * The data of an answer from a document that has the bundle: HUMAN_REQUIRED with the reason when the
 * human check fired, the page's own catalogue error when the action failed.
 */
export function pageAnswerData(answer: Exclude<InPageAnswer, { missing: true }>, action: string): unknown {
  if ('human' in answer) {
    failOnHuman(answer.human);
    fail('DRIVER_ERROR', `${action}: the page's human check answered outside the contract`);
  }
  if (answer.result.ok) return answer.result.data;
  throw new DriverFailure(checkedPageError(answer.result.error, action));
}

/** A page error must be a catalogue error; anything else becomes DRIVER_ERROR. */
export function checkedPageError(error: unknown, action: string): BproxyError {
  const e = error as Partial<Record<keyof BproxyError, unknown>> | null;
  if (e !== null && typeof e === 'object' && isErrorCode(e.code) && typeof e.message === 'string') {
    const extra: { reason?: string; details?: Record<string, unknown> } = {};
    if (typeof e.reason === 'string') extra.reason = e.reason;
    if (e.details !== null && typeof e.details === 'object')
      extra.details = e.details as Record<string, unknown>;
    return makeError(e.code, e.message.slice(0, 4000), extra);
  }
  return makeError('DRIVER_ERROR', `${action}: the page answered an error outside the catalogue`);
}

/**
 * What a `detectHuman` result that says a person is needed amounts to: the reason, and what was found
 * (kind, document, URL) when the page said, which the daemon keeps so a resume holds for that page.
 * Null when no person is needed.
 */
export function humanFailure(data: unknown): { reason: string; found?: HumanDetection } | null {
  if (data === null || typeof data !== 'object') return null;
  const d = data as Record<string, unknown>;
  if (d.required !== true) return null;
  const reason =
    typeof d.reason === 'string' && d.reason !== ''
      ? d.reason
      : 'the page needs a human (CAPTCHA, login wall or challenge)';
  const found = HumanDetectionSchema.safeParse({ kind: d.kind, document: d.document, url: d.url });
  return found.success ? { reason, found: found.data } : { reason };
}

/** Fails with HUMAN_REQUIRED (reason, and what was found as details) when `data` says a person is needed. */
export function failOnHuman(data: unknown): void {
  const failure = humanFailure(data);
  if (failure === null) return;
  fail('HUMAN_REQUIRED', failure.reason, {
    reason: failure.reason,
    ...(failure.found === undefined ? {} : { details: failure.found }),
  });
}
