/**
 * `batch` against a real daemon (port 0) and a scripted extension over a real WebSocket: the steps run
 * in order as requests of their own (ids derived from the batch's), the first failure ends it, a bad
 * step stops it before anything runs, a repeated batch acts once, and its steps are paced like the
 * same requests sent one by one — read off the daemon's own pacing decisions and the times the
 * driver received each step, never off the test's clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeError, type BproxyResponse } from '@bproxy/protocol';
import { nextId, startDaemonWithTab, type TestDaemon } from '../harness';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function withTab(overrides: Parameters<typeof startDaemonWithTab>[0] = {}) {
  const env = await startDaemonWithTab(overrides);
  closers.push(() => env.close());
  return env;
}

const events = (daemon: TestDaemon, event: string, id?: string) =>
  daemon.logLines
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((e) => e.event === event && (id === undefined || e.id === id));

function failure(res: BproxyResponse) {
  if (res.ok) throw new Error(`expected a failure, got ${JSON.stringify(res.data)}`);
  return res.error;
}

describe('batch', () => {
  it("runs its steps in order as requests of their own, answering each step's result", async () => {
    const { daemon, ext, session } = await withTab();
    const id = nextId();
    const res = await daemon.call(
      'batch',
      {
        steps: [
          { action: 'elements' },
          { action: 'click', params: { target: 'el1' } },
          { action: 'text', params: {} },
        ],
      },
      session,
      { id },
    );
    if (!res.ok) throw new Error(JSON.stringify(res.error));
    const steps = (res.data as { steps: { action: string; data: Record<string, unknown> }[] }).steps;
    expect(steps.map((s) => s.action)).toEqual(['elements', 'click', 'text']);
    expect(steps[2]?.data).toMatchObject({ text: 'hello' });
    // The approvals' own read before the click (inspect with `approval`) is not a step.
    const forwarded = ext.received.filter((r) => r.id.startsWith(`${id}.`) && !r.id.includes('.approval-'));
    expect(forwarded.map((r) => [r.id, r.action])).toEqual([
      [`${id}.1`, 'elements'],
      [`${id}.2`, 'click'],
      [`${id}.3`, 'text'],
    ]);
    // The handle minted by step 1 was resolved by the daemon for step 2, as for a request alone.
    expect(forwarded[1]?.params).toEqual({ target: { ref: 'r1', selector: '#a' } });
    expect(events(daemon, 'received', `${id}.2`)).toHaveLength(1);
  });

  it('stops at its failing step: later steps never run, the answer is that step’s error with what ran before', async () => {
    const { daemon, ext, session } = await withTab();
    ext.behaviour = (req) =>
      req.action === 'hover'
        ? { ok: false, error: makeError('ELEMENT_NOT_INTERACTABLE', 'covered by #overlay') }
        : ext.defaultAnswer(req);
    const id = nextId();
    const res = await daemon.call(
      'batch',
      {
        steps: [
          { action: 'elements' },
          { action: 'hover', params: { target: 'el1' } },
          { action: 'click', params: { target: 'el2' } },
        ],
      },
      session,
      { id },
    );
    const error = failure(res);
    expect(error.code).toBe('ELEMENT_NOT_INTERACTABLE');
    expect(error.message).toBe('step 2 (hover): covered by #overlay');
    expect(error.details).toMatchObject({
      batch: { failedStep: 2, completed: [{ action: 'elements' }] },
    });
    expect(ext.received.map((r) => r.id)).not.toContain(`${id}.3`);
    expect(events(daemon, 'batch_stopped', id)).toEqual([expect.objectContaining({ step: 2 })]);
  });

  it('stops at a step the daemon refuses (a handle it never minted) before it reaches the browser', async () => {
    const { daemon, ext, session } = await withTab();
    const id = nextId();
    const res = await daemon.call(
      'batch',
      { steps: [{ action: 'text' }, { action: 'click', params: { target: 'el9' } }, { action: 'text' }] },
      session,
      { id },
    );
    expect(failure(res)).toMatchObject({ code: 'ELEMENT_HANDLE_NOT_FOUND', message: /^step 2 \(click\): / });
    expect(ext.received.filter((r) => r.id.startsWith(`${id}.`)).map((r) => r.id)).toEqual([`${id}.1`]);
  });

  it('refuses a batch with a bad step before any step runs', async () => {
    const { daemon, ext, session } = await withTab();
    const before = ext.received.length;
    const res = await daemon.call(
      'batch',
      { steps: [{ action: 'text' }, { action: 'click', params: {} }] },
      session,
    );
    expect(failure(res)).toMatchObject({ code: 'BAD_REQUEST', message: /^step 2 \(click\): .*no step ran$/ });
    const nested = await daemon.call(
      'batch',
      { steps: [{ action: 'batch', params: { steps: [] } }] },
      session,
    );
    expect(failure(nested).code).toBe('BAD_REQUEST');
    const closing = await daemon.call('batch', { steps: [{ action: 'session.close' }] }, session);
    expect(failure(closing).code).toBe('BAD_REQUEST');
    expect(ext.received.length).toBe(before);
  });

  it('acts once when the same batch is sent again: the repeat is answered from the record', async () => {
    const { daemon, ext, session } = await withTab();
    const id = nextId();
    const body = { steps: [{ action: 'elements' }, { action: 'click', params: { target: 'el1' } }] };
    const first = await daemon.call('batch', body, session, { id });
    const again = await daemon.call('batch', body, session, { id });
    expect(again).toEqual(first);
    expect(ext.received.filter((r) => r.id === `${id}.2`)).toHaveLength(1);
  });

  it('cannot beat pacing: its steps take the pacing slots the same requests sent one by one would', async () => {
    // Human pacing with the shortest delays (interactions 500 ms apart), on a daemon clock that stands
    // still: each slot is then exactly 500 ms after the one before, and the daemon's decisions say so.
    const clock = { now: () => Date.now(), monotonic: () => 1_000_000 };
    const { daemon, session } = await withTab({ pacingOverride: 'human', random: () => 0, clock });
    const id = nextId();
    const res = await daemon.call(
      'batch',
      {
        steps: [
          { action: 'elements' },
          { action: 'click', params: { target: 'el1' } },
          { action: 'click', params: { target: 'el2' } },
          { action: 'hover', params: { target: 'el1' } },
        ],
      },
      session,
      { id, deadlineMs: 20_000 },
    );
    expect(res.ok).toBe(true);
    const delay = (requestId: string) =>
      events(daemon, 'pacing_wait', requestId).map((e) => Number(e.delay_ms));
    // tab.open took the first slot; each interaction of the batch waits 500 ms more than the one before.
    expect(delay(`${id}.1`)).toEqual([]);
    expect(delay(`${id}.2`)).toEqual([500]);
    expect(delay(`${id}.3`)).toEqual([1000]);
    expect(delay(`${id}.4`)).toEqual([1500]);
    // A click sent alone afterwards takes the next slot: the batch and single requests share one schedule.
    const single = nextId();
    expect(
      (await daemon.call('click', { target: 'el2' }, session, { id: single, deadlineMs: 20_000 })).ok,
    ).toBe(true);
    expect(delay(single)).toEqual([2000]);
  }, 20_000);
});
