import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeExtension, nextId, okData, startDaemon, until, type TestDaemon } from '../harness';

let daemon: TestDaemon;
let ext: FakeExtension;

beforeEach(async () => {
  daemon = await startDaemon();
  ext = new FakeExtension(daemon);
});
afterEach(async () => {
  await ext.drop();
  await daemon.close();
});

async function openTab(): Promise<string> {
  const opened = await daemon.call('tab.open', { url: 'http://x/' });
  if (!opened.ok) throw new Error(JSON.stringify(opened));
  return (opened.data as { session: string }).session;
}

describe('command route with a fake extension', () => {
  it('round-trips tab.open, auto-creating and binding a session, with no raw tab id in the answer', async () => {
    await ext.connect();
    const res = await daemon.call('tab.open', { url: 'http://x/' });
    expect(res.ok).toBe(true);
    const data = okData(res);
    expect(data.tab).toBe('t1');
    expect(data.bound).toBe(true);
    expect(JSON.stringify(res)).not.toContain('100');
    expect(ext.received[0]?.action).toBe('tab.open');
  });

  it('answers NO_EXTENSION when no browser is connected', async () => {
    const res = await daemon.call('tab.open', { url: 'http://x/' });
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.error.code).toBe('NO_EXTENSION');
  });

  it('forwards with the daemon-owned target tab and mints element handles', async () => {
    await ext.connect();
    const session = await openTab();
    const els = await daemon.call('elements', {}, session);
    expect(els.ok).toBe(true);
    const handles = okData<{ elements: { handle: string }[] }>(els).elements.map((e) => e.handle);
    expect(handles).toEqual(['el1', 'el2']);
    const click = await daemon.call('click', { target: 'el2' }, session);
    expect(click.ok).toBe(true);
    const forwarded = ext.received.at(-1);
    expect(forwarded?.target).toEqual({ tabId: 100 });
    expect(forwarded?.params).toEqual({ target: { ref: 'r2', selector: '#b' } });
  });

  it("resolves drag's `to` as a handle, and leaves scroll's `to` (top, bottom) as it is", async () => {
    await ext.connect();
    const session = await openTab();
    await daemon.call('elements', {}, session);
    await daemon.call('drag', { target: 'el1', to: 'el2' }, session);
    expect(ext.received.at(-1)?.action).toBe('drag');
    expect(ext.received.at(-1)?.params).toMatchObject({ to: { ref: 'r2', selector: '#b' } });
    await daemon.call('scroll', { to: 'bottom' }, session);
    expect(ext.received.at(-1)?.action).toBe('scroll');
    expect(ext.received.at(-1)?.params).toEqual({ to: 'bottom' });
  });

  it('serializes commands on one tab and runs different tabs in parallel', async () => {
    await ext.connect();
    const s1 = await openTab();
    const s2 = await openTab();
    const order: string[] = [];
    const gates = new Map<string, () => void>();
    ext.behaviour = async (req) => {
      if (req.action !== 'text') return ext.defaultAnswer(req);
      order.push(`start:${req.id}`);
      await new Promise<void>((r) => gates.set(req.id, r));
      order.push(`end:${req.id}`);
      return ext.defaultAnswer(req);
    };
    const a = daemon.call('text', {}, s1, { id: 'a1' });
    const b = daemon.call('text', {}, s1, { id: 'b1' });
    const c = daemon.call('text', {}, s2, { id: 'c1' });
    await until(() => gates.has('a1') && gates.has('c1'), 'a1 and c1 to start');
    expect(gates.has('b1')).toBe(false); // b1 waits for a1 on the same tab
    gates.get('a1')?.();
    await until(() => gates.has('b1'), 'b1 to start after a1');
    gates.get('b1')?.();
    gates.get('c1')?.();
    await Promise.all([a, b, c]);
    expect(order.indexOf('end:a1')).toBeLessThan(order.indexOf('start:b1'));
  });

  it('answers TIMEOUT at the deadline and never sends the request again', async () => {
    await ext.connect();
    const session = await openTab();
    ext.behaviour = () => 'drop';
    const res = await daemon.call('text', {}, session, { deadlineMs: 300 });
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.error.code).toBe('TIMEOUT');
    const sent = ext.received.length;
    await ext.drop();
    await ext.connect();
    const after = await daemon.call('debug.status');
    expect(after.ok).toBe(true);
    expect(ext.received.length).toBe(sent); // no replay of the timed-out request
  });

  it('replays a request whose socket dropped before delivery, executing it once', async () => {
    await ext.connect();
    const session = await openTab();
    await ext.drop();
    const pending = daemon.call('text', {}, session, { id: 'replay-1' });
    await until(() => daemon.server.deps.pending.awaitingAnswer === 1, 'the request to wait for the driver');
    await ext.connect();
    const res = await pending;
    expect(res.ok).toBe(true);
    expect(ext.executed.filter((id) => id === 'replay-1')).toHaveLength(1);
  });

  it('replays a request executed before the socket dropped; the dedupe table answers without re-running', async () => {
    await ext.connect();
    const session = await openTab();
    let first = true;
    ext.behaviour = async (req) => {
      if (req.action === 'click' && first) {
        first = false;
        const answer = ext.defaultAnswer(req);
        void ext.drop(); // executed, but the answer is lost with the socket
        return answer;
      }
      return ext.defaultAnswer(req);
    };
    await daemon.call('elements', {}, session);
    const pending = daemon.call('click', { target: { selector: '#a' } }, session, { id: 'click-once' });
    await until(() => ext.socket === null, 'the socket to drop');
    await ext.connect();
    const res = await pending;
    expect(res.ok).toBe(true);
    expect(ext.executed.filter((id) => id === 'click-once')).toHaveLength(1);
    expect(ext.received.filter((r) => r.id === 'click-once')).toHaveLength(2);
  });

  it('joins a retry with the same id in flight and returns the recorded answer after completion', async () => {
    await ext.connect();
    const session = await openTab();
    const body = { id: 'same-1', action: 'text', session, params: {}, deadline: Date.now() + 5_000 };
    const [a, b] = await Promise.all([daemon.post(body), daemon.post(body)]);
    expect(a.body).toEqual(b.body);
    const c = await daemon.post({ ...body, deadline: Date.now() + 6_000 });
    expect(c.body).toEqual(a.body);
    expect(ext.executed.filter((id) => id === 'same-1')).toHaveLength(1);
    const conflict = await daemon.post({ ...body, params: { maxChars: 500 } });
    expect(conflict.status).toBe(409);
    expect(conflict.body.ok === false && conflict.body.error.code).toBe('REQUEST_ID_CONFLICT');
  });

  it('answers OVERLOADED when 100 requests are in flight', async () => {
    await ext.connect();
    const session = await openTab();
    ext.behaviour = () => 'drop';
    const inflight = Array.from({ length: 100 }, () =>
      daemon.call('text', {}, session, { deadlineMs: 3_000 }),
    );
    await until(() => daemon.server.deps.pending.inFlight === 100, '100 requests in flight');
    const res = await daemon.call('text', {}, session);
    expect(res.ok === false && res.error.code).toBe('OVERLOADED');
    await Promise.all(inflight);
  });

  it('pauses the session on HUMAN_REQUIRED and refuses forwarded actions until resume', async () => {
    await ext.connect();
    const session = await openTab();
    ext.behaviour = (req) =>
      req.action === 'navigate'
        ? {
            ok: false,
            error: {
              code: 'HUMAN_REQUIRED',
              category: 'policy',
              retry: false,
              message: 'reCAPTCHA on the page',
            },
          }
        : ext.defaultAnswer(req);
    const nav = await daemon.call('navigate', { url: 'http://x/captcha' }, session);
    expect(nav.ok === false && nav.error.code).toBe('HUMAN_REQUIRED');
    const sent = ext.received.length;
    const text = await daemon.call('text', {}, session);
    expect(text.ok === false && text.error.code).toBe('HUMAN_REQUIRED');
    expect(text.ok === false && text.error.reason).toBe('reCAPTCHA on the page');
    expect(ext.received.length).toBe(sent);
    const list = await daemon.call('session.list');
    expect(list.ok).toBe(true);
    await daemon.call('session.resume', {}, session);
    const again = await daemon.call('text', {}, session);
    expect(again.ok).toBe(true);
  });

  it('after a resume, forwards a waiver for the check that paused the session, on that page only', async () => {
    await ext.connect();
    const session = await openTab();
    const human = (kind: string, details: Record<string, unknown>) => ({
      ok: false as const,
      error: {
        code: 'HUMAN_REQUIRED',
        category: 'policy',
        retry: false,
        message: `${kind} on the page`,
        details,
      },
    });
    const page = { document: '0123456789abcdef', url: 'http://x/in' };
    let answer: ReturnType<typeof human> | null = human('login', { kind: 'login', ...page });
    ext.behaviour = (req) => answer ?? ext.defaultAnswer(req);
    const paused = await daemon.call('text', {}, session);
    expect(paused.ok === false && paused.error.code).toBe('HUMAN_REQUIRED');
    // Nothing is waived before a person resumes.
    expect(ext.received.at(-1)?.target).toEqual({ tabId: 100 });

    answer = null;
    await daemon.call('session.resume', {}, session);
    expect((await daemon.call('text', {}, session)).ok).toBe(true);
    expect(ext.received.at(-1)?.target).toEqual({ tabId: 100, humanWaiver: { ...page, kinds: ['login'] } });

    // Another kind on the same page pauses again; its resume waives both.
    answer = human('captcha', { kind: 'captcha', ...page });
    await daemon.call('text', {}, session);
    answer = null;
    await daemon.call('session.resume', {}, session);
    await daemon.call('text', {}, session);
    const both = { ...page, kinds: ['login', 'captcha'] };
    expect(ext.received.at(-1)?.target?.humanWaiver).toEqual(both);

    // A pause the driver did not describe waives nothing more: it fails closed.
    answer = human('login', {});
    await daemon.call('text', {}, session);
    answer = null;
    await daemon.call('session.resume', {}, session);
    await daemon.call('text', {}, session);
    expect(ext.received.at(-1)?.target?.humanWaiver).toEqual(both);

    // A check on another page (a new document) replaces the waiver with one for that page.
    const next = { document: 'fedcba9876543210', url: 'http://x/next' };
    answer = human('challenge', { kind: 'challenge', ...next });
    await daemon.call('text', {}, session);
    answer = null;
    await daemon.call('session.resume', {}, session);
    await daemon.call('text', {}, session);
    expect(ext.received.at(-1)?.target?.humanWaiver).toEqual({ ...next, kinds: ['challenge'] });
  });

  it('makes handles stale after a navigation push and scoped to their tab', async () => {
    await ext.connect();
    const session = await openTab();
    await daemon.call('elements', {}, session);
    ext.send({ type: 'navigation', tabId: 100, url: 'http://x/next', cause: 'committed' });
    await until(() => daemon.logLines.some((l) => l.includes('"event":"navigation"')), 'the navigation push');
    const stale = await daemon.call('click', { target: 'el1' }, session);
    expect(stale.ok === false && stale.error.code).toBe('ELEMENT_HANDLE_STALE');

    await daemon.call('elements', {}, session);
    const t2 = await daemon.call('tab.open', { url: 'http://x/2' }, session);
    expect(t2.ok).toBe(true);
    const other = await daemon.call('click', { target: 'el3' }, session);
    expect(other.ok === false && other.error.code).toBe('ELEMENT_HANDLE_SCOPE_MISMATCH');
    const unknown = await daemon.call('click', { target: 'el99' }, session);
    expect(unknown.ok === false && unknown.error.code).toBe('ELEMENT_HANDLE_NOT_FOUND');
  });

  it('closes a session: its tabs are closed in the browser and the id is gone', async () => {
    await ext.connect();
    const session = await openTab();
    await daemon.call('tab.open', { url: 'http://x/2' }, session);
    const closed = await daemon.call('session.close', {}, session);
    expect(closed.ok && closed.data).toEqual({
      session,
      closedTabs: ['t1', 't2'],
      forgottenTabs: [],
      releasedTabs: [],
    });
    expect(ext.received.filter((r) => r.action === 'tab.close')).toHaveLength(2);
    const gone = await daemon.call('text', {}, session);
    expect(gone.ok === false && gone.error.code).toBe('SESSION_NOT_FOUND');
  });

  it('applies the seed precedence: SESSION_REQUIRED, INVALID_SESSION_ID, NO_EXTENSION, HUMAN_REQUIRED, TAB_NOT_FOUND', async () => {
    const code = (r: Awaited<ReturnType<TestDaemon['call']>>) => (r.ok ? 'ok' : r.error.code);
    expect(code(await daemon.call('text'))).toBe('SESSION_REQUIRED');
    expect(code(await daemon.call('text', {}, 'ABC'))).toBe('INVALID_SESSION_ID');
    expect(code(await daemon.call('text', {}, 'aaaaaa'))).toBe('SESSION_NOT_FOUND');
    const created = await daemon.call('session.create');
    const session = created.ok ? (created.data as { session: string }).session : '';
    expect(code(await daemon.call('text', {}, session))).toBe('NO_EXTENSION');
    await ext.connect();
    expect(code(await daemon.call('text', {}, session))).toBe('TAB_NOT_FOUND');
  });

  it('returns the same answer for a retried session.create', async () => {
    const id = nextId();
    const a = await daemon.call('session.create', {}, undefined, { id });
    const b = await daemon.call('session.create', {}, undefined, { id });
    expect(a).toEqual(b);
    const list = await daemon.call('session.list');
    expect(list.ok && (list.data as { sessions: unknown[] }).sessions).toHaveLength(1);
  });

  it('keeps raw tab ids out of a driver error message', async () => {
    await ext.connect();
    const session = await openTab();
    ext.behaviour = (req) =>
      req.action === 'text'
        ? {
            ok: false,
            error: { code: 'DRIVER_ERROR', category: 'internal', retry: true, message: 'tab 100 crashed' },
          }
        : ext.defaultAnswer(req);
    const res = await daemon.call('text', {}, session);
    expect(res.ok === false && res.error.message).toBe('tab t1 crashed');
  });

  it('re-derives the forwarded deadline from the monotonic clock after a wall-clock jump', async () => {
    await daemon.close();
    let offset = 0;
    daemon = await startDaemon({
      clock: { now: () => Date.now() + offset, monotonic: () => performance.now() },
    });
    ext = new FakeExtension(daemon);
    await ext.connect();
    const session = await openTab();
    await ext.drop();
    const pending = daemon.call('text', {}, session, { id: 'jump-1', deadlineMs: 5_000 });
    await until(() => daemon.server.deps.pending.awaitingAnswer === 1, 'the request to wait for the driver');
    offset = 3_600_000; // the wall clock leaps an hour ahead while the driver is away
    await ext.connect();
    expect((await pending).ok).toBe(true);
    const replayed = ext.received.find((r) => r.id === 'jump-1');
    expect(replayed?.deadline).toBeGreaterThan(Date.now() + offset);
    expect(replayed?.deadline).toBeLessThanOrEqual(Date.now() + offset + 5_000);
  });
});

describe('the result the command route returns', () => {
  it("is checked against the action's result schema: one outside it is an INTERNAL_ERROR, and the daemon keeps serving", async () => {
    const created = await daemon.call('session.create', { label: 'kept' });
    expect(created.ok).toBe(true);
    // A daemon-side bug: session.list builds an entry the protocol does not allow.
    const info = vi
      .spyOn(daemon.server.deps.sessions, 'info')
      .mockReturnValue({ session: 'not a session id' } as unknown as ReturnType<
        typeof daemon.server.deps.sessions.info
      >);
    const { status, body } = await daemon.post({
      id: nextId(),
      action: 'session.list',
      params: {},
      deadline: Date.now() + 5_000,
    });
    expect(status).toBe(500);
    expect(body.ok).toBe(false);
    if (body.ok) return;
    expect(body.error.code).toBe('INTERNAL_ERROR');
    expect(body.error.message).toContain("the daemon's session.list result is outside the protocol");
    expect(daemon.logLines.some((l) => l.includes('"event":"result_outside_protocol"'))).toBe(true);
    info.mockRestore();
    const again = await daemon.call('session.list');
    expect(again.ok).toBe(true);
  });
});
