import { describe, expect, it, vi } from 'vitest';
import { DriverFailure } from '../../src/failure';
import { inFlight, waitNetworkIdle } from '../../src/observe/network-idle';
import { TabLog } from '../../src/observe/tab-log';

const sent = (log: TabLog, id: string, url: string): void =>
  log.feed('Network.requestWillBeSent', { requestId: id, request: { url, method: 'GET', headers: {} } });

describe('wait --network-idle over a tab log', () => {
  it('counts a request in flight from its start until it finishes or fails', () => {
    const log = new TabLog();
    sent(log, 'a', 'http://a.test/one');
    sent(log, 'b', 'http://a.test/two');
    expect(inFlight(log).map((e) => e.url)).toEqual(['http://a.test/one', 'http://a.test/two']);
    log.feed('Network.loadingFinished', { requestId: 'a' });
    log.feed('Network.loadingFailed', { requestId: 'b', errorText: 'net::ERR_ABORTED' });
    expect(inFlight(log)).toEqual([]);
  });

  it('ends only once no request has been in flight for the quiet period', async () => {
    vi.useFakeTimers();
    try {
      const log = new TabLog();
      sent(log, 'a', 'http://a.test/slow');
      let ended = false;
      const idle = waitNetworkIdle(log, 5000, 50).then(() => (ended = true));
      await vi.advanceTimersByTimeAsync(1000);
      expect(ended).toBe(false);
      log.feed('Network.loadingFinished', { requestId: 'a' });
      await vi.advanceTimersByTimeAsync(49);
      expect(ended).toBe(false);
      // A request that starts and ends within the period starts it again.
      sent(log, 'b', 'http://a.test/quick');
      log.feed('Network.loadingFinished', { requestId: 'b' });
      await vi.advanceTimersByTimeAsync(49);
      expect(ended).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await idle;
      expect(ended).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers WAIT_TIMEOUT naming how many requests are in flight and the first two', async () => {
    const log = new TabLog();
    for (const n of [1, 2, 3]) sent(log, `r${n}`, `http://a.test/pending/${n}`);
    const failure = await waitNetworkIdle(log, 30, 50).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(DriverFailure);
    const { code, message } = (failure as DriverFailure).error;
    expect(code).toBe('WAIT_TIMEOUT');
    expect(message).toBe(
      'waited 30 ms for the network to be idle for 50 ms; 3 requests were still in flight: http://a.test/pending/1, http://a.test/pending/2, …',
    );
  });
});
