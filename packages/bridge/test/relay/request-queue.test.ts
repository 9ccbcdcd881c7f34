import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UpstreamRequest } from '../../src/relay/cdp-frames';
import { RequestQueue } from '../../src/relay/request-queue';

const request = (id: number): UpstreamRequest => ({
  id,
  method: 'M',
  sessionId: undefined,
  params: {},
  text: `{"id":${id}}`,
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the queue of requests waiting for the browser', () => {
  it('holds at most its limit and hands them back oldest first', () => {
    const queue = new RequestQueue({ limit: 2, timeoutMs: 1_000, onExpired: () => undefined });
    expect([queue.push(request(1)), queue.push(request(2)), queue.push(request(3))]).toEqual([
      true,
      true,
      false,
    ]);
    expect(queue.drain().map((r) => r.id)).toEqual([1, 2]);
    expect(queue.size).toBe(0);
  });

  it('lets each request wait only until its own deadline', () => {
    vi.useFakeTimers();
    const expired: number[] = [];
    const queue = new RequestQueue({ limit: 10, timeoutMs: 1_000, onExpired: (r) => expired.push(r.id) });
    queue.push(request(1));
    vi.advanceTimersByTime(600);
    queue.push(request(2));
    vi.advanceTimersByTime(400);
    expect(expired).toEqual([1]);
    expect(queue.drain().map((r) => r.id)).toEqual([2]);
    vi.advanceTimersByTime(5_000);
    expect(expired).toEqual([1]);
  });
});
