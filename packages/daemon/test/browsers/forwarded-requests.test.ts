import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BproxyForwardedRequest, RequestId } from '@bproxy/protocol';
import { ForwardedRequests } from '../../src/browsers/forwarded-requests';

const events = { timeout: vi.fn(), replay: vi.fn(), late: vi.fn() };
const req = (id: string): BproxyForwardedRequest => ({
  id: id as RequestId,
  action: 'text',
  params: {},
  deadline: 0,
});

afterEach(() => {
  vi.useRealTimers();
  vi.clearAllMocks();
});

describe('ForwardedRequests', () => {
  it('resolves with the answer of the client it was sent to, once', async () => {
    const p = new ForwardedRequests(() => performance.now(), events);
    const answer = p.send('c1', req('a'), performance.now() + 1_000, () => true);
    expect(p.resolve('c2', 'a', { ok: true, data: 'other client' })).toBe(false);
    expect(p.resolve('c1', 'a', { ok: true, data: 1 })).toBe(true);
    expect(p.resolve('c1', 'a', { ok: true, data: 2 })).toBe(false);
    expect(await answer).toEqual({ ok: true, data: 1 });
    expect(events.late).toHaveBeenCalledTimes(2);
  });

  it('answers TIMEOUT at the deadline and drops the entry so it is never replayed', async () => {
    vi.useFakeTimers();
    let now = 0;
    const p = new ForwardedRequests(() => now, events);
    const answer = p.send('c1', req('t'), 500, () => false);
    now = 500;
    vi.advanceTimersByTime(500);
    const outcome = await answer;
    expect(outcome.ok === false && outcome.error.code).toBe('TIMEOUT');
    const replayed: string[] = [];
    p.replay('c1', (r) => replayed.push(r.id));
    expect(replayed).toEqual([]);
  });

  it('replays only the live entries of the reconnecting client', () => {
    const p = new ForwardedRequests(() => performance.now(), events);
    void p.send('c1', req('x'), performance.now() + 5_000, () => false);
    void p.send('c2', req('y'), performance.now() + 5_000, () => false);
    const replayed: string[] = [];
    p.replay('c1', (r) => replayed.push(r.id));
    expect(replayed).toEqual(['x']);
    p.failAll({ code: 'SHUTTING_DOWN', category: 'transport', retry: true, message: '' });
  });

  it('bounds admission', () => {
    const p = new ForwardedRequests(() => 0, events, 2);
    expect([p.admit(), p.admit(), p.admit()]).toEqual([true, true, false]);
    p.release();
    expect(p.admit()).toBe(true);
  });

  it('resolves whenIdle once the last admitted request is released', async () => {
    const p = new ForwardedRequests(() => 0, events);
    p.admit();
    let idle = false;
    const waiting = p.whenIdle().then(() => (idle = true));
    await Promise.resolve();
    expect(idle).toBe(false);
    p.release();
    await waiting;
    expect(idle).toBe(true);
  });
});
