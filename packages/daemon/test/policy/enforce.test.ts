/**
 * The site policy where every action passes: a navigate or tab open to a denied (or "ask") origin is
 * answered POLICY_DENIED and never forwarded; a tab a link, a popup or a redirect brought to such an
 * origin pauses its session with the reason and its action answers POLICY_DENIED; no action runs on
 * that page, even after the agent resumes; allowed origins are untouched. Only the extension's user
 * channel reads or writes the policy.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { BproxyResponse, DaemonMessage, SitePolicy } from '@bproxy/protocol';
import { memoryPolicy } from '../../src/policy/site-policy';
import { FakeExtension, okData, startDaemon, until, type TestDaemon } from '../harness';

const POLICY: SitePolicy = {
  version: 1,
  default: 'allow',
  origins: {
    'https://bank.example': { rule: 'deny' },
    'https://*.ask.example': { rule: 'ask' },
  },
};

let daemon: TestDaemon | undefined;
let ext: FakeExtension | undefined;
afterEach(async () => {
  await ext?.drop();
  await daemon?.close();
  ext = undefined;
  daemon = undefined;
});

async function start(policy: SitePolicy = POLICY): Promise<{ d: TestDaemon; x: FakeExtension }> {
  const d = await startDaemon({ sitePolicy: memoryPolicy(policy) });
  const x = new FakeExtension(d);
  await x.connect();
  daemon = d;
  ext = x;
  return { d, x };
}

function expectDenied(res: BproxyResponse, origin: string, rule: RegExp): void {
  expect(res.ok).toBe(false);
  if (res.ok) return;
  expect(res.error.code).toBe('POLICY_DENIED');
  expect(res.error.message).toContain(origin);
  expect(res.error.message.split('\n')).toHaveLength(1);
  expect(res.error.details).toMatchObject({ origin });
  expect(String(res.error.details?.rule)).toMatch(rule);
}

describe('the site policy on navigations', () => {
  it('refuses navigate and tab.open to a denied or "ask" origin before anything is forwarded, and lets others through', async () => {
    const { d, x } = await start();
    const { session } = okData<{ session: string }>(await d.call('tab.open', { url: 'https://ok.example/' }));
    const empty = okData<{ session: string }>(await d.call('session.create', {})).session;
    const sent = x.received.length;
    const sessions = okData<{ sessions: unknown[] }>(await d.call('session.list', {})).sessions.length;
    expectDenied(
      await d.call('navigate', { url: 'https://bank.example/login' }, session),
      'https://bank.example',
      /deny/,
    );
    expectDenied(await d.call('tab.open', { url: 'https://bank.example/' }), 'https://bank.example', /deny/);
    expectDenied(
      await d.call('tab.open', { url: 'https://bank.example/' }, session),
      'https://bank.example',
      /deny/,
    );
    expectDenied(
      await d.call('navigate', { url: 'https://bank.example/' }, empty),
      'https://bank.example',
      /deny/,
    );
    const ask = await d.call('navigate', { url: 'https://a.ask.example/' }, session);
    expectDenied(ask, 'https://a.ask.example', /\*\.ask\.example: ask/);
    if (!ask.ok) expect(ask.error.message).toMatch(/no person can answer.*side panel \(Policy\)/);
    expect(x.received.length).toBe(sent);
    // A refused tab.open without -s leaves no session behind.
    expect(okData<{ sessions: unknown[] }>(await d.call('session.list', {})).sessions).toHaveLength(sessions);
    // Another scheme is another origin; allowed ones reach the browser.
    okData(await d.call('navigate', { url: 'http://bank.example/' }, session));
    okData(await d.call('navigate', { url: 'https://ok.example/2' }, session));
    expect(x.received.length).toBe(sent + 2);
  });

  it('pauses the session where a click took its tab to a denied origin, answers POLICY_DENIED, and runs nothing there even after a resume', async () => {
    const { d, x } = await start();
    const { session } = okData<{ session: string }>(await d.call('tab.open', { url: 'https://ok.example/' }));
    const tabId = x.received.at(-1)?.target?.tabId ?? 100;
    x.behaviour = (req) => {
      if (req.action !== 'click') return x.defaultAnswer(req);
      // The page followed a link (or a redirect) to the bank: the driver reports the commit, then answers.
      x.send({ type: 'navigation', tabId, url: 'https://bank.example/home', cause: 'committed' });
      return { ok: true, data: { url: 'https://bank.example/home', title: 'Bank', navigated: true } };
    };
    const clicked = await d.call('click', { target: { selector: 'a' } }, session);
    expectDenied(clicked, 'https://bank.example', /deny/);
    const listed = okData<{ sessions: { session: string; state: string; pauseReason?: string }[] }>(
      await d.call('session.list', {}, session),
    ).sessions.find((s) => s.session === session);
    expect(listed).toMatchObject({ state: 'paused' });
    expect(listed?.pauseReason).toMatch(/bank\.example is denied/);
    expect((await d.call('text', {}, session)).ok).toBe(false);
    // The agent resumes: still nothing runs on the denied page, but it may leave.
    okData(await d.call('session.resume', {}, session));
    const sent = x.received.length;
    expectDenied(await d.call('text', {}, session), 'https://bank.example', /deny/);
    expect(x.received.length).toBe(sent);
    okData(await d.call('navigate', { url: 'https://ok.example/back' }, session));
    okData(await d.call('text', {}, session));
  });

  it('pauses the session when a popup its page opened lands on a denied origin, and judges pushes that arrive after the answer', async () => {
    const { d, x } = await start();
    const { session } = okData<{ session: string }>(await d.call('tab.open', { url: 'https://ok.example/' }));
    const opener = x.received.at(-1)?.target?.tabId ?? 100;
    x.behaviour = (req) => {
      if (req.action !== 'click') return x.defaultAnswer(req);
      x.send({ type: 'tab_opened', tabId: 555, openerTabId: opener, url: 'https://bank.example/pay' });
      return {
        ok: true,
        data: {
          url: 'https://ok.example/',
          title: 'Ok',
          navigated: false,
          openedTabs: [{ tabId: 555, url: 'https://bank.example/pay' }],
        },
      };
    };
    expectDenied(
      await d.call('click', { target: { selector: 'a' } }, session),
      'https://bank.example',
      /deny/,
    );
    okData(await d.call('session.resume', {}, session));
    // A tab already in the session that a redirect takes to the bank later: the push alone pauses it.
    x.send({ type: 'navigation', tabId: opener, url: 'https://bank.example/late', cause: 'committed' });
    let state = '';
    const end = Date.now() + 3_000;
    while (state !== 'paused' && Date.now() < end) {
      const s = okData<{ sessions: { session: string; state: string }[] }>(
        await d.call('session.list', {}, session),
      );
      state = s.sessions.find((e) => e.session === session)?.state ?? '';
    }
    expect(state).toBe('paused');
  });
});

describe('the site policy door', () => {
  async function ask(
    x: FakeExtension,
    request: Record<string, unknown>,
    requestId: string,
  ): Promise<DaemonMessage> {
    x.send({ type: 'user_request', requestId, request });
    let answer: DaemonMessage | undefined;
    await until(() => {
      answer = x.messages.find((m) => m.type === 'user_answer' && m.requestId === requestId);
      return answer !== undefined;
    }, 'the user answer');
    if (!answer) throw new Error('unreachable');
    return answer;
  }

  it('reads, replaces and resets the policy over the extension’s user channel, and the next navigation obeys it', async () => {
    const { d, x } = await start();
    const { session } = okData<{ session: string }>(await d.call('tab.open', { url: 'https://ok.example/' }));
    expectDenied(
      await d.call('navigate', { url: 'https://bank.example/' }, session),
      'https://bank.example',
      /deny/,
    );
    const read = await ask(x, { kind: 'policy' }, 'p1');
    expect(read).toMatchObject({ ok: true, result: { kind: 'policy', policy: POLICY } });
    if (read.type === 'user_answer' && read.ok && read.result.kind === 'policy')
      expect(read.result.refusals.at(-1)).toMatchObject({
        origin: 'https://bank.example',
        how: 'navigate',
        session,
      });
    const next: SitePolicy = {
      version: 1,
      default: 'deny',
      origins: { 'https://bank.example': { rule: 'allow' } },
    };
    expect(await ask(x, { kind: 'policy_set', policy: next }, 'p2')).toMatchObject({
      ok: true,
      result: { policy: next },
    });
    okData(await d.call('navigate', { url: 'https://bank.example/' }, session));
    expectDenied(
      await d.call('navigate', { url: 'https://ok.example/' }, session),
      'https://ok.example',
      /default: deny/,
    );
    const reset = await ask(x, { kind: 'policy_reset' }, 'p3');
    expect(reset).toMatchObject({
      ok: true,
      result: { policy: { default: 'allow', origins: {} }, refusals: [] },
    });
    okData(await d.call('navigate', { url: 'https://ok.example/' }, session));
    // A malformed policy from the channel is refused by the protocol, the policy unchanged.
    x.send({
      type: 'user_request',
      requestId: 'p4',
      request: { kind: 'policy_set', policy: { version: 1, default: 'yes', origins: {} } },
    });
    await until(
      () => x.messages.some((m) => m.type === 'error' && m.error.code === 'BAD_REQUEST'),
      'the refusal',
    );
    expect(await ask(x, { kind: 'policy' }, 'p5')).toMatchObject({
      result: { policy: { default: 'allow' } },
    });
  });
});
