/**
 * What the user asks for in the browser's UI, over the extension's connection: sharing a tab (it joins
 * a new session as t1, bound; closing the session releases it), resuming, taking over and closing a
 * session of its own tabs, and reading the activity feed; and what the daemon pushes unasked — the
 * sessions holding the browser's tabs, and an activity entry per action there. Agents have no way
 * onto this channel, and a browser cannot touch a session that holds none of its tabs.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SHARED_SESSION_GONE_HINT, type DaemonMessage, type SessionId } from '@bproxy/protocol';
import { FakeExtension, okData, startDaemon, until, type TestDaemon } from '../harness';

let daemon: TestDaemon;
let ext: FakeExtension;
beforeEach(async () => {
  daemon = await startDaemon();
  ext = new FakeExtension(daemon);
  await ext.connect();
});
afterEach(async () => {
  await ext.drop();
  await daemon.close();
});

async function share(tabId: number, requestId = `r${tabId}`): Promise<DaemonMessage> {
  return ask({ kind: 'share_tab', tabId, url: 'https://mail.example/inbox', title: 'Inbox' }, requestId);
}

let asked = 0;
async function ask(
  request: Record<string, unknown>,
  requestId = `q${++asked}`,
  from = ext,
): Promise<DaemonMessage> {
  from.send({ type: 'user_request', requestId, request });
  let answer: DaemonMessage | undefined;
  await until(() => {
    answer = from.messages.find((m) => m.type === 'user_answer' && m.requestId === requestId);
    return answer !== undefined;
  }, 'the user answer');
  if (!answer) throw new Error('unreachable');
  return answer;
}

function sharedSession(answer: DaemonMessage): string {
  if (answer.type !== 'user_answer' || !answer.ok || answer.result.kind !== 'share_tab')
    throw new Error(`expected a shared tab, got ${JSON.stringify(answer)}`);
  return answer.result.shared.session;
}

describe('sharing a tab from the browser', () => {
  it('puts the tab into a new bound session that agents drive, and answers the same session again', async () => {
    const answer = await share(77);
    expect(answer).toMatchObject({
      type: 'user_answer',
      ok: true,
      result: { kind: 'share_tab', shared: { tab: 't1', created: true } },
    });
    const session = sharedSession(answer);
    // Listed to the agent that names it (the one the user handed it to), and to no other.
    const { sessions } = okData<{ sessions: { session: string; state: string; tab: string }[] }>(
      await daemon.call('session.list', {}, session),
    );
    expect(sessions).toEqual([
      expect.objectContaining({ session, state: 'bound', tab: 't1', sharedByUser: true }),
    ]);

    okData(await daemon.call('text', {}, session));
    expect(ext.received.at(-1)).toMatchObject({ action: 'text', target: { tabId: 77 } });

    const again = await share(77, 'again');
    expect(again).toMatchObject({ ok: true, result: { shared: { session, tab: 't1', created: false } } });
  });

  it('releases a shared tab when its session closes: not closed, and its browser is told', async () => {
    const session = sharedSession(await share(78));
    const closed = okData<{ closedTabs: string[]; releasedTabs: string[] }>(
      await daemon.call('session.close', {}, session),
    );
    expect(closed).toMatchObject({ closedTabs: [], releasedTabs: ['t1'] });
    expect(ext.received.some((r) => r.action === 'tab.close')).toBe(false);
    await until(() => ext.messages.some((m) => m.type === 'tab_released'), 'the release');
    expect(ext.messages.find((m) => m.type === 'tab_released')).toEqual({ type: 'tab_released', tabId: 78 });
  });

  it('tells an agent whose shared tab’s session is gone to ask the user, not to create a session', async () => {
    const session = sharedSession(await share(79));
    okData(await daemon.call('session.close', {}, session));
    const gone = await daemon.call('text', {}, session);
    expect(gone).toMatchObject({
      ok: false,
      error: { code: 'SESSION_NOT_FOUND', hint: SHARED_SESSION_GONE_HINT },
    });
    // An agent's own session id keeps the catalogue's hint.
    const own = await daemon.call('text', {}, 'm4q7z2');
    expect(own).toMatchObject({ ok: false, error: { code: 'SESSION_NOT_FOUND' } });
    expect(JSON.stringify(own)).not.toContain(SHARED_SESSION_GONE_HINT);
  });

  it('refuses a share that does not come from an extension', async () => {
    const handler = daemon.server.deps.drivers.userRequests;
    if (!handler) throw new Error('no user-request handler');
    const cdp = { ...daemon.server.deps.clients.all()[0], kind: 'cdp' } as Parameters<typeof handler>[0];
    const answer = await handler(cdp, { kind: 'share_tab', tabId: 5, url: 'about:blank', title: '' });
    expect(answer).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(okData<{ sessions: unknown[] }>(await daemon.call('session.list')).sessions).toEqual([]);
  });

  it('answers a malformed share with a protocol error and shares nothing', async () => {
    ext.send({ type: 'user_request', requestId: 'bad', request: { kind: 'share_tab', tabId: 'seven' } });
    await until(() => ext.messages.some((m) => m.type === 'error'), 'the error');
    expect(okData<{ sessions: unknown[] }>(await daemon.call('session.list')).sessions).toEqual([]);
  });
});

describe('a browser that restarted', () => {
  it('closes the sessions the user shared in its last run, and keeps them across a reconnect of the same run', async () => {
    const browser = new FakeExtension(daemon, 'restartingbrowser', 'restarting');
    await browser.connect({ run: 'run-one-1234' });
    const shared = sharedSession(
      await ask({ kind: 'share_tab', tabId: 41, url: 'https://a.example/', title: 'A' }, 'rs1', browser),
    );
    const sharedIds = () =>
      daemon.server.deps.sessions
        .all()
        .filter((s) => s.sharedByUser === true)
        .map((s) => s.id);
    expect(sharedIds()).toEqual([shared]);

    // The worker reconnecting in the same run of the browser: the tab is still there.
    await browser.drop();
    await browser.connect({ run: 'run-one-1234' });
    expect(sharedIds()).toEqual([shared]);
    okData(await daemon.call('text', {}, shared));

    // A second shared tab is closed as the browser quits (Chrome closes its tabs first): its session
    // is left with no tab until the browser comes back.
    const closing = sharedSession(
      await ask({ kind: 'share_tab', tabId: 42, url: 'https://b.example/', title: 'B' }, 'rs2', browser),
    );
    browser.send({ type: 'tab_closed', tabId: 42 });
    await until(
      () => daemon.server.deps.sessions.get(closing as SessionId)?.tabs.size === 0,
      'the closed tab to be forgotten',
    );
    expect(sharedIds().sort()).toEqual([shared, closing].sort());

    // The browser restarted: the tab of its last run is gone, and so are the sessions it shared.
    await browser.drop();
    await browser.connect({ run: 'run-two-5678' });
    expect(sharedIds()).toEqual([]);
    const refused = await daemon.call('text', {}, shared);
    expect(refused.ok).toBe(false);
    await until(
      () => browser.messages.some((m) => m.type === 'sessions' && m.sessions.length === 0),
      'the sessions push without it',
    );
    await browser.drop();
  });
});

/** Every session-id-shaped string in an answer another agent can get without naming a session. */
function idsIn(value: unknown): string[] {
  return [...JSON.stringify(value).matchAll(/"([a-z2-7]{6}|[a-z2-7]{26})"/g)].flatMap((m) =>
    m[1] === undefined ? [] : [m[1]],
  );
}

async function whatOthersSee(): Promise<string[]> {
  const answers = await Promise.all([
    daemon.call('session.list'),
    daemon.call('debug.status'),
    daemon.call('debug.last', { limit: 200 }),
  ]);
  return answers.flatMap((answer) => idsIn(okData(answer)));
}

describe("sessions the user shared or holds are not other agents' to reach", () => {
  it('a shared tab: its unguessable id is listed to no other agent, which cannot drive it; the agent it was handed to can', async () => {
    const session = sharedSession(await share(90));
    expect(session).toMatch(/^[a-z2-7]{26}$/);
    // The agent the user handed the id to acts there, and sees its session.
    okData(await daemon.call('text', {}, session));
    okData(await daemon.call('session.bind', { tab: 't1' }, session));
    expect(idsIn(okData(await daemon.call('session.list', {}, session)))).toContain(session);
    const handled = ext.received.length;

    // Another token holder: every id it can learn, tried as a session — none reaches the shared tab.
    const { session: own } = okData<{ session: string }>(await daemon.call('tab.open', { url: 'http://x/' }));
    const seen = await whatOthersSee();
    expect(seen).toContain(own);
    expect(seen).not.toContain(session);
    for (const id of new Set(seen)) await daemon.call('text', {}, id);
    expect(ext.received.slice(handled).filter((r) => r.target?.tabId === 90)).toEqual([]);
  });

  it('a shared tab keeps the pacing the user chose: no agent can change it', async () => {
    const session = sharedSession(await share(91));
    const before = okData<{ sessions: { pacing: string }[] }>(await daemon.call('session.list', {}, session))
      .sessions[0]?.pacing;
    const other = before === 'fast' ? 'human' : 'fast';
    const refused = await daemon.call('session.bind', { pacing: other }, session);
    expect(refused.ok ? null : refused.error.code).toBe('PACING_SET_BY_USER');
    const listed = okData<{ sessions: { pacing: string }[] }>(await daemon.call('session.list', {}, session));
    expect(listed.sessions).toEqual([expect.objectContaining({ pacing: before })]);
    // The user chooses it in the browser, and the agent cannot set it back either.
    expect(await ask({ kind: 'set_pacing', session, pacing: other })).toMatchObject({
      ok: true,
      result: { kind: 'set_pacing', info: { pacing: other } },
    });
    const back = await daemon.call('session.bind', { pacing: before }, session);
    expect(back.ok ? null : back.error.code).toBe('PACING_SET_BY_USER');
    // An agent's own session is still its to pace.
    const { session: own } = okData<{ session: string }>(await daemon.call('session.create'));
    expect(okData(await daemon.call('session.bind', { pacing: other }, own))).toMatchObject({
      pacing: other,
    });
  });

  it('a session the user took over: unlisted to others, neither driven, re-bound nor re-paced until they resume', async () => {
    const { session } = okData<{ session: string }>(await daemon.call('tab.open', { url: 'http://x/' }));
    const { pacing } = okData<{ pacing: string }>(await daemon.call('session.bind', { tab: 't1' }, session));
    await ask({ kind: 'take_over', session });
    expect(await whatOthersSee()).not.toContain(session);
    const other = pacing === 'fast' ? 'human' : 'fast';
    for (const [action, params] of [
      ['text', {}],
      ['session.bind', { pacing: other }],
      ['session.bind', { tab: 't1' }],
    ] as const) {
      const refused = await daemon.call(action, params, session);
      expect(refused.ok ? null : refused.error.code, `${action} ${JSON.stringify(params)}`).toBe(
        'HUMAN_REQUIRED',
      );
    }
    await ask({ kind: 'resume', session });
    expect(await whatOthersSee()).toContain(session);
    expect(okData(await daemon.call('session.list', {}, session))).toMatchObject({
      sessions: expect.arrayContaining([expect.objectContaining({ session, pacing })]),
    });
    okData(await daemon.call('text', {}, session));
  });
});

describe('the hand-off controls of the user', () => {
  it('takes a session over and resumes it: agents get HUMAN_REQUIRED with the reason in between', async () => {
    const { session } = okData<{ session: string }>(await daemon.call('tab.open', { url: 'http://x/' }));
    const taken = await ask({ kind: 'take_over', session });
    expect(taken).toMatchObject({ ok: true, result: { kind: 'take_over', info: { paused: true } } });
    const refused = await daemon.call('text', {}, session);
    expect(refused.ok ? null : refused.error).toMatchObject({
      code: 'HUMAN_REQUIRED',
      reason: expect.stringMatching(/user took over/),
    });
    expect(await ask({ kind: 'resume', session })).toMatchObject({
      ok: true,
      result: { kind: 'resume', info: { paused: false } },
    });
    okData(await daemon.call('text', {}, session));
  });

  it('keeps a session the user took over theirs: an agent can neither resume, unbind nor close it', async () => {
    const { session } = okData<{ session: string }>(await daemon.call('tab.open', { url: 'http://x/' }));
    await ask({ kind: 'take_over', session });
    for (const action of ['session.resume', 'session.unbind', 'session.close'] as const) {
      const refused = await daemon.call(action, {}, session);
      expect(refused.ok ? null : refused.error.code, action).toBe('HUMAN_REQUIRED');
    }
    expect(ext.received.some((r) => r.action === 'tab.close')).toBe(false);
    expect((await daemon.call('text', {}, session)).ok).toBe(false);
    // A pause the page caused is still the agent's to resume once a person solved it.
    await ask({ kind: 'resume', session });
    okData(await daemon.call('text', {}, session));
    okData(await daemon.call('session.resume', {}, session));
    okData(await daemon.call('session.close', {}, session));
  });

  it('closes a session of its tabs from the browser', async () => {
    const { session } = okData<{ session: string }>(await daemon.call('tab.open', { url: 'http://x/' }));
    const closed = await ask({ kind: 'close_session', session });
    expect(closed).toMatchObject({
      ok: true,
      result: { kind: 'close_session', closed: { closedTabs: ['t1'] } },
    });
    expect(ext.received.some((r) => r.action === 'tab.close')).toBe(true);
    expect((await daemon.call('text', {}, session)).ok).toBe(false);
  });

  it('refuses to act on a session that holds none of the tabs of this browser, saying nothing more', async () => {
    const other = new FakeExtension(daemon, undefined, 'other');
    await other.connect();
    try {
      const { session } = okData<{ session: string }>(
        await daemon.call('tab.open', { url: 'http://x/', browser: 'fake' }),
      );
      for (const kind of ['take_over', 'resume', 'close_session']) {
        const answer = await ask({ kind, session }, undefined, other);
        expect(answer).toMatchObject({ ok: false, error: { code: 'SESSION_NOT_FOUND' } });
      }
      expect(okData<{ paused: boolean }>(await daemon.call('session.resume', {}, session)).paused).toBe(
        false,
      );
    } finally {
      await other.drop();
    }
  });
});

describe('what the daemon pushes to the browser', () => {
  it('sends the sessions holding its tabs when they change, with their state', async () => {
    const { session } = okData<{ session: string }>(await daemon.call('tab.open', { url: 'http://x/' }));
    const latest = () => ext.messages.filter((m) => m.type === 'sessions').at(-1);
    await until(() => JSON.stringify(latest()).includes(session), 'the sessions push');
    expect(latest()).toMatchObject({
      sessions: [{ info: { session, state: 'bound', paused: false }, tabs: [{ tab: 't1', shared: false }] }],
    });
    await ask({ kind: 'take_over', session });
    await until(() => JSON.stringify(latest()).includes('"paused":true'), 'the paused push');
    await ask({ kind: 'close_session', session });
    await until(() => (latest() as { sessions: unknown[] }).sessions.length === 0, 'the empty push');
  });

  it('records every action in its tab, named by its target, with its outcome and pacing wait', async () => {
    const { session } = okData<{ session: string }>(await daemon.call('tab.open', { url: 'http://x/' }));
    okData(await daemon.call('elements', {}, session));
    okData(await daemon.call('click', { target: 'el1' }, session));
    ext.behaviour = (req) =>
      req.action === 'click'
        ? {
            ok: false,
            error: {
              code: 'ELEMENT_NOT_INTERACTABLE',
              category: 'page',
              retry: true,
              message: 'covered\nby a banner',
            },
          }
        : ext.defaultAnswer(req);
    await daemon.call('click', { target: 'el2' }, session);
    const pushed = () =>
      ext.messages
        .flatMap((m) => (m.type === 'activity' ? [m.entry] : []))
        .filter((e) => e.action === 'click');
    await until(() => pushed().length === 2, 'two click entries');
    expect(pushed()[0]).toMatchObject({
      kind: 'action',
      session,
      tab: 't1',
      action: 'click',
      target: { ref: 'el1', name: 'button "A"' },
    });
    expect(pushed()[1]).toMatchObject({
      target: { ref: 'el2', name: 'textbox "B"' },
      error: { code: 'ELEMENT_NOT_INTERACTABLE', message: 'covered' },
    });
    const replay = await ask({ kind: 'activity', after: 0 });
    expect(replay).toMatchObject({ ok: true, result: { kind: 'activity', gap: false } });
    if (replay.type !== 'user_answer' || !replay.ok || replay.result.kind !== 'activity')
      throw new Error('no replay');
    expect(replay.result.entries.map((e) => e.action)).toEqual(['tab.open', 'elements', 'click', 'click']);
  });

  it('names an element a snapshot minted, says which agent acted, and records a click refused while paused', async () => {
    const session = sharedSession(await share(90));
    ext.behaviour = (req) =>
      req.action === 'snapshot'
        ? {
            ok: true,
            data: {
              url: 'http://x/',
              title: 'Shop',
              snapshot: `heading "Shop"\n  button "Add Mug to cart" \uE0000\uE001`,
              refs: [{ ref: 'r9', selector: '#mug', kind: 'el' }],
              totalChars: 40,
              truncated: false,
            },
          }
        : ext.defaultAnswer(req);
    const send = async (action: string, params: Record<string, unknown>, agent?: unknown) =>
      (
        await daemon.post({
          id: `a${++asked}`,
          action,
          session,
          params,
          deadline: Date.now() + 5_000,
          ...(agent === undefined ? {} : { agent }),
        })
      ).body;
    const read = okData<{ snapshot: string }>(await send('snapshot', {}, { kind: 'cli' }));
    const handle = /\[(el\d+)\]/.exec(read.snapshot)?.[1] ?? '';
    okData(await send('click', { target: handle }, { kind: 'mcp', name: 'Claude Desktop' }));
    await ask({ kind: 'take_over', session });
    const refused = await send('click', { target: handle }, { kind: 'cli' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'HUMAN_REQUIRED' } });
    const clicks = () =>
      ext.messages.flatMap((m) => (m.type === 'activity' && m.entry.action === 'click' ? [m.entry] : []));
    await until(() => clicks().length === 2, 'the click and the refusal');
    expect(clicks()[0]).toMatchObject({
      target: { ref: handle, name: 'button "Add Mug to cart"' },
      agent: { kind: 'mcp', name: 'Claude Desktop' },
    });
    expect(clicks()[1]).toMatchObject({
      tabId: 90,
      target: { ref: handle, name: 'button "Add Mug to cart"' },
      agent: { kind: 'cli' },
      error: { code: 'HUMAN_REQUIRED' },
    });
    // A label, checked like every field of the envelope: an unknown kind or an overlong name is refused.
    for (const agent of [{ kind: 'root' }, { kind: 'mcp', name: 'x'.repeat(65) }])
      expect(await send('text', {}, agent)).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
  });
});
