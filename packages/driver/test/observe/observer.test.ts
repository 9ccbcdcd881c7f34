import { describe, expect, it } from 'vitest';
import { TabObserver, aroundAction, waitConsoleError } from '../../src/observe/observer';
import { DriverFailure } from '../../src/failure';
import { TabLog } from '../../src/observe/tab-log';

const error = (text: string) => ({ type: 'error', args: [{ type: 'string', value: text }] });

describe('the tab observer', () => {
  it("logs only the tabs it was given, and frees a tab's log when the tab leaves", () => {
    const o = new TabObserver();
    o.feed(7, 'Runtime.consoleAPICalled', error('not ours'));
    expect(o.has(7)).toBe(false);
    o.log(7);
    o.feed(7, 'Runtime.consoleAPICalled', error('ours'));
    expect(o.log(7).console.items).toHaveLength(1);
    o.release(7);
    expect(o.has(7)).toBe(false);
    expect(o.size).toBe(0);
  });

  it('answers an action on the page with one line of what it caused, after the requests it started end', async () => {
    const l = new TabLog();
    const result = await aroundAction(l, 'click', Date.now() + 5000, async () => {
      l.feed('Runtime.consoleAPICalled', error('boom'));
      l.feed('Network.requestWillBeSent', {
        requestId: 'a',
        request: { url: 'http://a.test/api/cart?x=1', method: 'POST', headers: {} },
        timestamp: 1,
        type: 'Fetch',
      });
      // The answer comes after the action returned: the news waits for it.
      setTimeout(() => {
        l.feed('Network.responseReceived', { requestId: 'a', response: { status: 422, headers: {} } });
        l.feed('Network.loadingFinished', { requestId: 'a', timestamp: 1.01 });
      }, 20);
      return 'done';
    });
    expect(result).toEqual({ data: 'done', news: '1 console error, POST /api/cart?x=1 422' });
  });

  it('says nothing when the action caused nothing, and reads never carry news', async () => {
    const l = new TabLog();
    expect(await aroundAction(l, 'click', Date.now() + 5000, () => Promise.resolve(1))).toEqual({ data: 1 });
    l.feed('Runtime.consoleAPICalled', error('before'));
    const read = await aroundAction(l, 'text', Date.now() + 5000, async () => {
      l.feed('Runtime.consoleAPICalled', error('during a read'));
      return 2;
    });
    expect(read).toEqual({ data: 2 });
  });

  it('waits for the first console error since the latest action, and times out with WAIT_TIMEOUT', async () => {
    const l = new TabLog();
    l.feed('Runtime.consoleAPICalled', error('old'));
    await aroundAction(l, 'click', Date.now() + 5000, () => Promise.resolve(null));
    setTimeout(
      () =>
        l.feed('Runtime.exceptionThrown', {
          exceptionDetails: { text: 'Uncaught', exception: { description: 'Error: late\n    at x' } },
        }),
      10,
    );
    expect(await waitConsoleError(l, 2000)).toBe('[error] Uncaught Error: late');
    await aroundAction(l, 'click', Date.now() + 5000, () => Promise.resolve(null));
    const failed = await waitConsoleError(l, 30).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(DriverFailure);
    expect((failed as DriverFailure).error).toMatchObject({
      code: 'WAIT_TIMEOUT',
      message: 'no console error within 30 ms',
    });
  });
});
