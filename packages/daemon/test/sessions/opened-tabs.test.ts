/**
 * Tabs a page opens (a target=_blank link, window.open): the driver's tab_opened push puts the new tab
 * in the session of its opener under the next handle; the answer of the action that opened it names
 * it by handle (never by raw id); the session can bind it; when it closes by itself while bound, the
 * session goes back to its opener and the next answer says so.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BproxyResponse } from '@bproxy/protocol';
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

interface Listed {
  session: string;
  tab: string | null;
  tabs: string[];
}

/**
 * Through session.list, which carries no session notes: the daemon's view without consuming any. It is
 * asked as the session's own agent (a tab the user shared is listed only to the agent that names it).
 */
async function sessionOf(id: string): Promise<Listed | undefined> {
  const { sessions } = okData<{ sessions: Listed[] }>(await daemon.call('session.list', {}, id));
  return sessions.find((s) => s.session === id);
}

async function waitForTabs(session: string, tabs: string[]): Promise<void> {
  let last: Listed | undefined;
  const seen = async (): Promise<boolean> => {
    last = await sessionOf(session);
    return JSON.stringify(last?.tabs) === JSON.stringify(tabs);
  };
  const end = Date.now() + 3_000;
  while (!(await seen())) {
    if (Date.now() > end) throw new Error(`the session has ${JSON.stringify(last?.tabs)}, not ${tabs}`);
  }
}

async function openSession(): Promise<string> {
  const opened = okData<{ session: string; tab: string }>(
    await daemon.call('tab.open', { url: 'http://x/start' }),
  );
  expect(opened.tab).toBe('t1');
  return opened.session;
}

function pushOpened(tabId: number, openerTabId: number, url: string): void {
  ext.send({ type: 'tab_opened', tabId, openerTabId, url });
}

const json = (res: BproxyResponse): string => JSON.stringify(res);

describe('tabs a page opens', () => {
  it('join the session of their opener, named by handle in the answer of the action that opened them', async () => {
    const session = await openSession();
    ext.behaviour = (req) => {
      if (req.action !== 'click') return ext.defaultAnswer(req);
      // As a driver does: the push first, then the answer naming the tab by raw id.
      pushOpened(555, 100, 'http://x/popup');
      return {
        ok: true,
        data: {
          url: 'http://x/start',
          title: 'Start',
          navigated: false,
          openedTabs: [{ tabId: 555, url: 'http://x/popup' }],
        },
      };
    };
    const clicked = await daemon.call('click', { target: { selector: '#open' } }, session);
    expect(okData(clicked)).toEqual({
      url: 'http://x/start',
      title: 'Start',
      navigated: false,
      openedTabs: [{ tab: 't2', url: 'http://x/popup' }],
    });
    expect(json(clicked)).not.toContain('555');

    const listed = okData<{ tabs: { tab: string; url: string; bound: boolean }[]; notes?: string[] }>(
      await daemon.call('tab.list', {}, session),
    );
    expect(listed.tabs.map((t) => [t.tab, t.url, t.bound])).toEqual([
      ['t1', 'http://x/start', true],
      ['t2', 'http://x/popup', false],
    ]);
    // Named by the click already: nothing more to say about it.
    expect(listed.notes).toBeUndefined();

    okData(await daemon.call('session.bind', { tab: 't2' }, session));
    okData(await daemon.call('text', {}, session));
    expect(ext.received.at(-1)).toMatchObject({ action: 'text', target: { tabId: 555 } });
  });

  it('tells a tab that no answer named in the next answer of its session', async () => {
    const session = await openSession();
    pushOpened(556, 100, 'http://x/receipt');
    await waitForTabs(session, ['t1', 't2']);
    const read = okData<{ notes?: string[] }>(await daemon.call('text', {}, session));
    expect(read.notes).toEqual(['t2 was opened by the page in t1: http://x/receipt']);
    // Said once.
    expect(okData<{ notes?: string[] }>(await daemon.call('text', {}, session)).notes).toBeUndefined();
  });

  it('goes back to the opener when the bound tab closes by itself, and says so in the next answer', async () => {
    const session = await openSession();
    pushOpened(557, 100, 'http://x/sign-in');
    await waitForTabs(session, ['t1', 't2']);
    okData(await daemon.call('session.bind', { tab: 't2' }, session));
    ext.send({ type: 'tab_closed', tabId: 557 });
    await waitForTabs(session, ['t1']);
    expect((await sessionOf(session))?.tab).toBe('t1');

    const read = okData<{ notes?: string[] }>(await daemon.call('text', {}, session));
    expect(ext.received.at(-1)).toMatchObject({ action: 'text', target: { tabId: 100 } });
    expect(read.notes).toEqual([
      't2 was closed in the browser; the session is back on t1, the tab that opened it',
    ]);
  });

  it('puts the note in the message of a failure when the next answer is one', async () => {
    const session = await openSession();
    pushOpened(558, 100, 'http://x/sign-in');
    await waitForTabs(session, ['t1', 't2']);
    okData(await daemon.call('session.bind', { tab: 't2' }, session));
    ext.send({ type: 'tab_closed', tabId: 558 });
    await waitForTabs(session, ['t1']);
    ext.behaviour = () => ({
      ok: false,
      error: { code: 'ELEMENT_NOT_FOUND', category: 'page', retry: false, message: 'no element matches #go' },
    });
    const failed = await daemon.call('click', { target: { selector: '#go' } }, session);
    expect(failed).toMatchObject({
      ok: false,
      error: { code: 'ELEMENT_NOT_FOUND', message: expect.stringContaining('the session is back on t1') },
    });
  });

  it('leaves a session alone when the bound tab that closed had no opener left', async () => {
    const session = await openSession();
    pushOpened(559, 100, 'http://x/a');
    await waitForTabs(session, ['t1', 't2']);
    okData(await daemon.call('session.bind', { tab: 't2' }, session));
    ext.send({ type: 'tab_closed', tabId: 100 });
    ext.send({ type: 'tab_closed', tabId: 559 });
    await waitForTabs(session, []);
    const failed = await daemon.call('text', {}, session);
    expect(failed).toMatchObject({ ok: false, error: { code: 'TAB_NOT_FOUND' } });
    expect(json(failed)).toContain('t2 was closed in the browser');
    expect(json(failed)).not.toContain('back on');
  });

  it('ignores a tab opened by a tab no session holds, and one it was already told about', async () => {
    const session = await openSession();
    pushOpened(560, 999, 'http://x/elsewhere');
    pushOpened(561, 100, 'http://x/once');
    pushOpened(561, 100, 'http://x/once');
    await waitForTabs(session, ['t1', 't2']);
    const { sessions } = okData<{ sessions: Listed[] }>(await daemon.call('session.list'));
    expect(sessions.map((s) => s.tabs)).toEqual([['t1', 't2']]);
  });

  it('leaves what a person opens while the session waits for them out of it', async () => {
    const session = await openSession();
    const ask = async (kind: 'take_over' | 'resume', requestId: string) => {
      ext.send({ type: 'user_request', requestId, request: { kind, session } });
      await until(
        () => ext.messages.some((m) => m.type === 'user_answer' && m.requestId === requestId),
        kind,
      );
    };
    await ask('take_over', 'take1');
    pushOpened(801, 100, 'http://x/by-the-user');
    await ask('resume', 'resume1');
    pushOpened(802, 100, 'http://x/by-the-page');
    await waitForTabs(session, ['t1', 't2']);
    const listed = okData<{ tabs: { tab: string; url: string }[] }>(
      await daemon.call('tab.list', {}, session),
    );
    expect(listed.tabs.find((t) => t.tab === 't2')?.url).toBe('http://x/by-the-page');
  });

  it('leaves a tab opened from a tab the user shared open when the session closes', async () => {
    ext.send({
      type: 'user_request',
      requestId: 'share1',
      request: { kind: 'share_tab', tabId: 700, url: 'http://x/mail', title: 'Mail' },
    });
    await until(() => ext.messages.some((m) => m.type === 'user_answer'), 'the share');
    const answer = ext.messages.find((m) => m.type === 'user_answer');
    if (answer?.type !== 'user_answer' || !answer.ok || answer.result.kind !== 'share_tab')
      throw new Error(`expected a shared tab, got ${JSON.stringify(answer)}`);
    const shared = answer.result.shared.session;
    pushOpened(701, 700, 'http://x/attachment');
    await waitForTabs(shared, ['t1', 't2']);
    const closed = okData<{ closedTabs: string[]; releasedTabs: string[] }>(
      await daemon.call('session.close', {}, shared),
    );
    expect(closed).toMatchObject({ closedTabs: [], releasedTabs: ['t1', 't2'] });
    expect(ext.received.some((r) => r.action === 'tab.close')).toBe(false);
  });

  it('refuses a tab_opened push outside the protocol', async () => {
    ext.send({ type: 'tab_opened', tabId: 'seven', openerTabId: 100, url: 'http://x/' });
    await until(() => ext.messages.some((m) => m.type === 'error'), 'the error');
    expect(ext.messages.find((m) => m.type === 'error')).toMatchObject({ error: { code: 'BAD_REQUEST' } });
  });

  it('stops adding to a session at 100 tabs when a page keeps opening them', async () => {
    const session = await openSession();
    for (let i = 1; i <= 105; i++) pushOpened(1000 + i, 100, `http://x/spam/${i}`);
    await until(
      () => daemon.logLines.filter((l) => l.includes('session tab limit')).length === 6,
      'the six tabs past the limit to be refused',
    );
    expect((await sessionOf(session))?.tabs).toHaveLength(100);
  });
});
