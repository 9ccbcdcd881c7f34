import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BproxyForwardedRequestSchema,
  type BproxyForwardedRequest,
  type DriverResponseMessage,
} from '@bproxy/protocol';
import {
  CALL_PAGE_API,
  DriverFailure,
  answerOnce,
  callPageApi,
  checkCall,
  checkResult,
  pageAnswerData,
  withDeadline,
  type ExecutedOutcome,
  type ExecutedRequests,
} from '../src/index';

/** The simplest table: a Map of answers, no resumption. */
class MemoryTable implements ExecutedRequests {
  readonly answers = new Map<string, Promise<DriverResponseMessage>>();
  async run(
    id: string,
    execute: (resumed: boolean) => Promise<DriverResponseMessage>,
  ): Promise<ExecutedOutcome> {
    const known = this.answers.get(id);
    if (known !== undefined) return { response: await known, replayed: true };
    const running = execute(false);
    this.answers.set(id, running);
    return { response: await running, replayed: false };
  }
}

const request = (extra: Record<string, unknown> = {}): BproxyForwardedRequest =>
  BproxyForwardedRequestSchema.parse({
    id: 'r1',
    action: 'click',
    params: { target: { selector: '#go' } },
    deadline: Date.now() + 10_000,
    target: { tabId: 3 },
    ...extra,
  });

const codeOf = (run: () => unknown): string | undefined => {
  try {
    run();
  } catch (error) {
    if (error instanceof DriverFailure) return error.error.code;
    throw error;
  }
  return undefined;
};

afterEach(() => {
  vi.useRealTimers();
  delete (globalThis as { __bproxyPage?: unknown }).__bproxyPage;
  delete (globalThis as { __bproxyLedger?: unknown }).__bproxyLedger;
});

describe('checking a forwarded call', () => {
  it('passes a valid request with its parsed params', () => {
    const call = checkCall(request());
    expect(call).toMatchObject({ action: 'click', tabId: 3, resumed: false });
    expect(call.params).toEqual({ target: { selector: '#go' } });
  });

  it('refuses daemon-local actions, unknown fields, tab actions without a tab and unresumable repeats', () => {
    expect(codeOf(() => checkCall(request({ action: 'session.list', params: {} })))).toBe(
      'UNSUPPORTED_ACTION',
    );
    expect(codeOf(() => checkCall(request({ params: { target: { selector: '#go' }, force: 1 } })))).toBe(
      'BAD_REQUEST',
    );
    expect(codeOf(() => checkCall(request({ target: undefined })))).toBe('BAD_REQUEST');
    expect(codeOf(() => checkCall(request({ action: 'back', params: {} }), true))).toBe('DRIVER_ERROR');
    expect(codeOf(() => checkCall(request(), true))).toBeUndefined();
  });

  it('refuses a result outside the driver-result schema', () => {
    expect(codeOf(() => checkResult('click', { url: 'x' }))).toBe('DRIVER_ERROR');
    expect(checkResult('click', { url: 'u', title: 't', navigated: false })).toEqual({
      url: 'u',
      title: 't',
      navigated: false,
    });
  });
});

describe('deadlines and exactly-once answers', () => {
  it('rejects with TIMEOUT at the deadline, and at once when it has passed', async () => {
    vi.useFakeTimers();
    const slow = withDeadline(new Promise(() => undefined), Date.now() + 1_000, 'click');
    const outcome = slow.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(((await outcome) as DriverFailure).error.code).toBe('TIMEOUT');
    await expect(withDeadline(Promise.resolve(1), Date.now() - 1, 'click')).rejects.toBeInstanceOf(
      DriverFailure,
    );
  });

  it('refuses a new request past its deadline without running it, but replays a known one', async () => {
    const table = new MemoryTable();
    const perform = vi.fn(async (): Promise<DriverResponseMessage> => ({
      type: 'response',
      id: 'r1',
      ok: true,
      data: {},
    }));
    const first = await answerOnce(table, request(), perform);
    const replay = await answerOnce(table, request({ deadline: Date.now() - 1 }), perform);
    expect(replay).toEqual({ response: first.response, replayed: true });
    const late = await answerOnce(table, request({ id: 'r2', deadline: Date.now() - 1 }), perform);
    expect(late.response.ok ? null : late.response.error.code).toBe('TIMEOUT');
    expect(perform).toHaveBeenCalledTimes(1);
  });
});

describe('the in-page call shim', () => {
  function installPage(run: (action: string, params: unknown) => Promise<unknown>): void {
    (globalThis as { __bproxyPage?: unknown }).__bproxyPage = { run };
  }

  it('says the bundle is missing, runs the human check first, and joins a recorded call', async () => {
    expect(await callPageApi('text', {}, null, null)).toEqual({ missing: true });
    let clicks = 0;
    installPage(async (action) => {
      if (action === 'detectHuman') return { ok: true, data: { required: false } };
      clicks++;
      return { ok: true, data: { clicks } };
    });
    const first = await callPageApi('click', {}, 'req-1', {});
    const again = await callPageApi('click', {}, 'req-1', {});
    // The second call is told it got the first run's answer.
    expect(first).toEqual({ result: { ok: true, data: { clicks: 1 } } });
    expect(again).toEqual({ ...first, replayed: true });
    expect(clicks).toBe(1);
    const seen: unknown[] = [];
    installPage(async (_action, params) => {
      seen.push(params);
      return { ok: true, data: { required: true, reason: 'reCAPTCHA widget' } };
    });
    const waived = { waived: { document: '0123456789abcdef', url: 'https://a.test/', kinds: ['login'] } };
    expect(await callPageApi('click', {}, 'req-2', waived)).toEqual({
      human: { required: true, reason: 'reCAPTCHA widget' },
    });
    expect(seen).toEqual([waived]);
  });

  it('is self-contained: its source text runs on its own', async () => {
    installPage(async () => ({ ok: true, data: 'read' }));
    const fn = new Function(`return (${CALL_PAGE_API})`)() as typeof callPageApi;
    expect(await fn('text', {}, null, null)).toEqual({ result: { ok: true, data: 'read' } });
  });

  it('turns answers into data, HUMAN_REQUIRED or the page error, refusing errors outside the catalogue', () => {
    expect(pageAnswerData({ result: { ok: true, data: 7 } }, 'text')).toBe(7);
    expect(codeOf(() => pageAnswerData({ human: { required: true, reason: 'login wall' } }, 'click'))).toBe(
      'HUMAN_REQUIRED',
    );
    const notFound = { code: 'ELEMENT_NOT_FOUND', message: 'no #go' };
    expect(codeOf(() => pageAnswerData({ result: { ok: false, error: notFound } }, 'click'))).toBe(
      'ELEMENT_NOT_FOUND',
    );
    expect(codeOf(() => pageAnswerData({ result: { ok: false, error: { code: 'NOPE' } } }, 'click'))).toBe(
      'DRIVER_ERROR',
    );
  });
});
