import { afterEach, describe, expect, it, vi } from 'vitest';
import { BOOTSTRAP_PARAMS } from '../../src/relay/relay';
import { until } from '../helpers/fake-transport';
import { answerLast, relayFixture } from '../helpers/relay-fixture';

afterEach(() => {
  vi.useRealTimers();
});

describe('relay: ids', () => {
  it("gives each request an id of the bridge's own downstream and hands answers back under the tool's id", async () => {
    const f = await relayFixture();
    const browser = f.browsers[0];
    f.tool.deliver({ id: 5, method: 'Runtime.evaluate', params: { expression: '1' }, sessionId: 'S1' });
    f.tool.deliver({ id: -3, method: 'Browser.getVersion', params: {} });
    expect(browser?.sent).toEqual([
      { id: 1, method: 'Runtime.evaluate', params: { expression: '1' }, sessionId: 'S1' },
      { id: 2, method: 'Browser.getVersion', params: {} },
    ]);
    browser?.deliver({ id: 2, result: { product: 'Chrome/1' } });
    browser?.deliver({ id: 1, result: { result: { value: 1 } }, sessionId: 'S1' });
    expect(f.tool.sent).toEqual([
      { id: -3, result: { product: 'Chrome/1' } },
      { id: 5, result: { result: { value: 1 } }, sessionId: 'S1' },
    ]);
  });

  it('answers a message that is not a CDP command with an error when it has an id', async () => {
    const f = await relayFixture();
    f.tool.onmessage?.('{"id":4}');
    expect(f.tool.sent).toEqual([
      { id: 4, error: { code: -32000, message: 'bproxy bridge: not a CDP command' } },
    ]);
    expect(f.browsers[0]?.sent).toEqual([]);
  });

  it.each([
    ['a fractional id', '{"id":1.5,"method":"Browser.getVersion"}', 1.5],
    ['an id beyond the safe integers', '{"id":9007199254740993,"method":"Browser.getVersion"}', 2 ** 53],
    ['a huge id', '{"id":1e300,"method":"Browser.getVersion"}', 1e300],
    ['a string id', '{"id":"7","method":"Browser.getVersion"}', undefined],
    ['no id', '{"method":"Browser.getVersion"}', undefined],
    ['text that is not JSON', 'not json', undefined],
    ['a JSON array', '[1,2]', undefined],
  ])('answers %s with an Invalid Request error and relays nothing', async (_case, text, id) => {
    const f = await relayFixture();
    f.tool.onmessage?.(text);
    const error = {
      code: -32600,
      message: 'bproxy bridge: a command needs an "id" that is a safe integer and a "method" (not relayed)',
    };
    expect(f.tool.sent).toEqual([id === undefined ? { error } : { id, error }]);
    expect(f.browsers[0]?.sent).toEqual([]);
  });
});

describe('relay: recovery in ws mode', () => {
  it('tells the tool its sessions ended, then on the next request restores auto-attach before sending what waited', async () => {
    const f = await relayFixture();
    const [first] = f.browsers;
    f.tool.deliver({
      id: 1,
      method: 'Target.setAutoAttach',
      params: { autoAttach: true, waitForDebuggerOnStart: false, flatten: true },
    });
    answerLast(first ?? f.tool);
    first?.deliver({
      method: 'Target.attachedToTarget',
      params: { sessionId: 'A', targetInfo: { targetId: 'T1' }, waitingForDebugger: false },
    });
    first?.deliver({
      method: 'Target.attachedToTarget',
      params: { sessionId: 'A2', targetInfo: { targetId: 'W1' } },
      sessionId: 'A',
    });

    first?.drop();
    expect(f.keeper.state).toBe('degraded');
    expect(f.tool.sent.slice(-2)).toEqual([
      { method: 'Target.detachedFromTarget', params: { sessionId: 'A2', targetId: 'W1' }, sessionId: 'A' },
      { method: 'Target.detachedFromTarget', params: { sessionId: 'A', targetId: 'T1' } },
    ]);

    f.tool.deliver({ id: 10, method: 'Target.createTarget', params: { url: 'about:blank' } });
    const second = await until('a new browser connection', () => f.browsers[1]);
    await until('the bootstrap', () => second.sent.length === 1);
    expect(second.sent[0]).toMatchObject({ method: 'Target.setAutoAttach', params: BOOTSTRAP_PARAMS });
    expect(second.sent[0]).not.toHaveProperty('sessionId');

    second.deliver({
      method: 'Target.attachedToTarget',
      params: { sessionId: 'B', targetInfo: { targetId: 'T2' }, waitingForDebugger: false },
    });
    expect(second.sent).toHaveLength(1);
    answerLast(second);
    await until('the queued request', () => second.sent.length === 2);
    expect(second.sent[1]).toMatchObject({ method: 'Target.createTarget' });
    second.deliver({ id: second.sent[1]?.id, result: { targetId: 'T3' } });

    const tail = f.tool.sent.slice(-2);
    expect(tail).toEqual([
      {
        method: 'Target.attachedToTarget',
        params: { sessionId: 'B', targetInfo: { targetId: 'T2' }, waitingForDebugger: false },
      },
      { id: 10, result: { targetId: 'T3' } },
    ]);
    // The bootstrap's answer stayed in the bridge.
    expect(f.tool.sent.filter((m) => m.id !== undefined).map((m) => m.id)).toEqual([1, 10]);
    const states = f.lines.map((l) => l.recoveryBootstrap ?? l.recoveryResult).filter(Boolean);
    expect(states).toEqual(['relaunched', 'started', 'acknowledged']);
  });

  it('resumes a target the bootstrap paused when the tool never asked for such pauses', async () => {
    const f = await relayFixture();
    f.browsers[0]?.drop();
    f.tool.deliver({ id: 1, method: 'Browser.getVersion', params: {} });
    const second = await until('a new browser connection', () => f.browsers[1]);
    await until('the bootstrap', () => second.sent.length === 1);
    second.deliver({
      method: 'Target.attachedToTarget',
      params: { sessionId: 'P', targetInfo: { targetId: 'T' }, waitingForDebugger: true },
    });
    expect(second.sent[1]).toMatchObject({ method: 'Runtime.runIfWaitingForDebugger', sessionId: 'P' });
    second.deliver({ id: second.sent[1]?.id, result: {}, sessionId: 'P' });
    expect(f.tool.sent.some((m) => m.sessionId === 'P' && m.id !== undefined)).toBe(false);
  });

  it('leaves resuming to a tool that set waitForDebuggerOnStart itself', async () => {
    const f = await relayFixture();
    f.tool.deliver({
      id: 1,
      method: 'Target.setAutoAttach',
      params: { autoAttach: true, waitForDebuggerOnStart: true, flatten: true },
    });
    answerLast(f.browsers[0] ?? f.tool);
    f.browsers[0]?.deliver({
      method: 'Target.attachedToTarget',
      params: { sessionId: 'P', targetInfo: { targetId: 'T' }, waitingForDebugger: true },
    });
    expect(f.browsers[0]?.sent).toHaveLength(1);
  });

  it('answers a request that waited past its deadline with a CDP error, and never sends it later', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const f = await relayFixture({ queueTimeoutMs: 500 });
    const release = f.holdAcquire();
    f.browsers[0]?.drop();
    f.tool.deliver({
      id: 3,
      method: 'Page.navigate',
      params: { url: 'https://example.org' },
      sessionId: 'S',
    });
    vi.advanceTimersByTime(500);
    expect(f.tool.sent.at(-1)).toEqual({
      id: 3,
      sessionId: 'S',
      error: {
        code: -32000,
        message: 'bproxy bridge: the browser did not come back within 500 ms; Page.navigate was not sent',
      },
    });
    release();
    const second = await until('a new browser connection', () => f.browsers[1]);
    await until('the bootstrap', () => second.sent.length === 1);
    answerLast(second);
    await until('the bootstrap acknowledged', () =>
      f.lines.some((l) => l.recoveryBootstrap === 'acknowledged'),
    );
    expect(second.sent.map((m) => m.method)).toEqual(['Target.setAutoAttach']);
  });

  it('refuses a request at once when the queue is full', async () => {
    const f = await relayFixture({ queueLimit: 2 });
    f.holdAcquire();
    f.browsers[0]?.drop();
    for (const id of [1, 2, 3]) f.tool.deliver({ id, method: 'Runtime.evaluate', params: {} });
    expect(f.tool.sent.filter((m) => m.id !== undefined)).toEqual([
      {
        id: 3,
        error: {
          code: -32000,
          message: 'bproxy bridge: 2 requests already wait for the browser to come back',
        },
      },
    ]);
  });

  it('answers what waited and closes the bridge when recovery fails', async () => {
    const f = await relayFixture();
    f.holdAcquire(new Error('no Chrome found'))();
    f.browsers[0]?.drop();
    f.tool.deliver({ id: 7, method: 'Runtime.evaluate', params: {} });
    await until('the answer', () => f.tool.sent.find((m) => m.id === 7));
    expect(f.tool.sent.find((m) => m.id === 7)).toEqual({
      id: 7,
      error: {
        code: -32000,
        message: 'bproxy bridge: the browser could not be brought back: no Chrome found',
      },
    });
    expect(f.keeper.state).toBe('closing');
    expect(f.lines.find((l) => l.recoveryResult === 'failed')).toMatchObject({ recoveryAttempt: 1 });
  });

  it('closes the bridge when the browser refuses the bootstrap', async () => {
    const f = await relayFixture();
    f.browsers[0]?.drop();
    f.tool.deliver({ id: 7, method: 'Runtime.evaluate', params: {} });
    const second = await until('a new browser connection', () => f.browsers[1]);
    await until('the bootstrap', () => second.sent.length === 1);
    second.deliver({ id: second.sent[0]?.id, error: { code: -32601, message: 'not allowed' } });
    await until('closing', () => f.keeper.state === 'closing');
    expect(f.lines.find((l) => l.recoveryBootstrap === 'failed')).toMatchObject({ error: 'not allowed' });
  });

  it('does not recover in pipe mode: the browser going away closes the bridge', async () => {
    const f = await relayFixture({ transportMode: 'pipe' });
    f.browsers[0]?.drop();
    expect(f.keeper.state).toBe('closing');
    expect(f.lines.find((l) => String(l.msg).startsWith('browser lost'))).toMatchObject({
      transportMode: 'pipe',
      disconnectSignals: 'ConnectionClosed',
      cause: 'connection-lost',
    });
  });
});

describe('relay: Browser.close', () => {
  it('answers at once while the browser is gone, without recovering it (also for id -9999)', async () => {
    const f = await relayFixture();
    f.browsers[0]?.drop();
    f.tool.deliver({ id: -9999, method: 'Browser.close', params: {} });
    expect(f.tool.sent.at(-1)).toEqual({ id: -9999, result: {} });
    expect(f.acquired).toBe(1);
    expect(f.closes).toEqual(['short-circuit']);
    expect(f.lines.find((l) => l.shortCircuitBrowserClose === true)).toBeDefined();
  });

  it('forwards it to a browser the bridge launched', async () => {
    const f = await relayFixture({ ownership: 'launched' });
    f.tool.deliver({ id: 9, method: 'Browser.close', params: {} });
    expect(f.browsers[0]?.sent.at(-1)).toMatchObject({ method: 'Browser.close' });
    expect(f.closes).toEqual([]);
    answerLast(f.browsers[0] ?? f.tool);
    expect(f.tool.sent.at(-1)).toEqual({ id: 9, result: {} });
    expect(f.closes).toEqual(['forwarded']);
  });

  it("keeps relaying the browser's events after the close until it closes the connection, then ends what it did not", async () => {
    const f = await relayFixture({ ownership: 'launched' });
    const browser = f.browsers[0] ?? f.tool;
    for (const [sessionId, targetId] of [
      ['A', 'T1'],
      ['B', 'T2'],
    ])
      browser.deliver({ method: 'Target.attachedToTarget', params: { sessionId, targetInfo: { targetId } } });
    f.keeper.close('Browser.close (forwarded) on another connection', false);
    const finished = f.relay.finish(30_000);
    // Chrome ends one target, says so, and closes the connection without a word about the other.
    browser.deliver({ method: 'Target.detachedFromTarget', params: { sessionId: 'A', targetId: 'T1' } });
    browser.deliver({ method: 'Inspector.detached', params: { reason: 'target_closed' }, sessionId: 'B' });
    expect(f.tool.closedByRelay).toBe(false);
    browser.drop();
    await finished;
    expect(
      f.tool.sent.map((m) => [m.method, (m.params as { sessionId?: string } | undefined)?.sessionId]),
    ).toEqual([
      ['Target.attachedToTarget', 'A'],
      ['Target.attachedToTarget', 'B'],
      ['Target.detachedFromTarget', 'A'],
      ['Inspector.detached', undefined],
      ['Target.detachedFromTarget', 'B'],
    ]);
    expect(f.tool.closedByRelay).toBe(true);
  });

  it('tells a tool its sessions ended before closing it, when the bridge ends without a Browser.close', async () => {
    const f = await relayFixture({ ownership: 'attached' });
    f.browsers[0]?.deliver({
      method: 'Target.attachedToTarget',
      params: { sessionId: 'A', targetInfo: { targetId: 'T1' } },
    });
    f.keeper.close('received SIGTERM', false);
    await f.relay.finish(0);
    expect(f.tool.sent.at(-1)).toEqual({
      method: 'Target.detachedFromTarget',
      params: { sessionId: 'A', targetId: 'T1' },
    });
    expect(f.tool.closedByRelay).toBe(true);
  });

  it('never forwards it to a browser the bridge attached to', async () => {
    const f = await relayFixture({ ownership: 'attached' });
    f.tool.deliver({ id: 9, method: 'Browser.close', params: {} });
    expect(f.browsers[0]?.sent).toEqual([]);
    expect(f.tool.sent.at(-1)).toEqual({ id: 9, result: {} });
    expect(f.closes).toEqual(['not-ours']);
  });
});
