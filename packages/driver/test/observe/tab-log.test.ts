import { describe, expect, it } from 'vitest';
import { TabLog } from '../../src/observe/tab-log';
import { readConsole, readNetwork } from '../../src/observe/reads';

const log = (text: string, type = 'log') => ({
  type,
  args: [{ type: 'string', value: text }],
  stackTrace: { callFrames: [{ url: 'http://a.test/app.js', lineNumber: 9, columnNumber: 4 }] },
});

function request(l: TabLog, id: string, url: string, headers: Record<string, string> = {}): void {
  l.feed('Network.requestWillBeSent', {
    requestId: id,
    request: { url, method: 'GET', headers },
    timestamp: 1,
    wallTime: 1_700_000_000,
    type: 'Fetch',
    initiator: { type: 'other' },
  });
}

describe('a tab log', () => {
  it('keeps at most its count of console entries, the oldest going first, and says how many went', () => {
    const l = new TabLog({ entries: 3, bytes: 1_000_000 }, { entries: 10, bytes: 1_000_000 });
    for (let i = 1; i <= 5; i++) l.feed('Runtime.consoleAPICalled', log(`message ${i}`));
    expect(l.console.items.map((e) => e.text)).toEqual(['message 3', 'message 4', 'message 5']);
    const read = readConsole(l, {}, 'http://a.test/');
    expect(read).toMatchObject({ total: 3, shown: 3, dropped: 2 });
    expect(read.text.split('\n')[0]).toBe('[log] message 3 (http://a.test/app.js:10:5)');
  });

  it('keeps its console within its bytes', () => {
    const l = new TabLog({ entries: 1000, bytes: 1000 }, { entries: 10, bytes: 1_000_000 });
    for (let i = 0; i < 50; i++) l.feed('Runtime.consoleAPICalled', log('x'.repeat(100)));
    expect(l.console.bytes).toBeLessThanOrEqual(1000);
    expect(l.console.items.length).toBeGreaterThan(0);
    expect(l.console.items.length).toBeLessThan(50);
  });

  it('keeps its network list within its bytes as headers arrive, forgetting the requests it lets go', () => {
    const l = new TabLog({ entries: 10, bytes: 100_000 }, { entries: 100, bytes: 4000 });
    for (let i = 1; i <= 20; i++) {
      request(l, `id${i}`, `http://a.test/${i}`);
      l.feed('Network.responseReceivedExtraInfo', {
        requestId: `id${i}`,
        headers: { 'x-pad': 'p'.repeat(500) },
      });
      l.feed('Network.responseReceived', {
        requestId: `id${i}`,
        type: 'Fetch',
        response: { status: 200, headers: {} },
      });
    }
    expect(l.network.bytes).toBeLessThanOrEqual(4000);
    expect(l.network.dropped).toBeGreaterThan(0);
    expect(l.request(1)).toBeUndefined();
    expect(l.request(20)?.url).toBe('http://a.test/20');
  });

  it('takes the headers on the wire (extra info) even when they come before their request', () => {
    const l = new TabLog();
    l.feed('Network.requestWillBeSentExtraInfo', { requestId: 'a', headers: { Cookie: 'sid=1' } });
    request(l, 'a', 'http://a.test/x', { Accept: '*/*' });
    expect(l.request(1)?.requestHeaders).toEqual([{ name: 'Cookie', value: 'sid=1' }]);
  });

  it('lists a redirect as two requests and a failure with its reason', () => {
    const l = new TabLog();
    request(l, 'a', 'http://a.test/old');
    l.feed('Network.requestWillBeSent', {
      requestId: 'a',
      request: { url: 'http://a.test/new', method: 'GET', headers: {} },
      redirectResponse: { status: 302, headers: {} },
      timestamp: 2,
      type: 'Fetch',
    });
    l.feed('Network.loadingFailed', {
      requestId: 'a',
      timestamp: 3,
      errorText: 'net::ERR_FAILED',
      corsErrorStatus: { corsError: 'MissingAllowOriginHeader' },
    });
    const text = readNetwork(l, {}, '').text.split('\n');
    expect(text[0]).toMatch(/^r1 GET 302 fetch http:\/\/a\.test\/old 1000ms$/);
    expect(text[1]).toMatch(
      /^r2 GET failed fetch http:\/\/a\.test\/new 1000ms \(net::ERR_FAILED, CORS: MissingAllowOriginHeader\)$/,
    );
    expect(readNetwork(l, { status: 'failed' }, '').total).toBe(1);
    expect(readNetwork(l, { status: '3xx' }, '').total).toBe(1);
  });
});
