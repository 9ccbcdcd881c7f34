/**
 * A tab the user shares from the browser's UI: it joins a new session as t1, bound; agents drive it
 * by that session; closing the session releases it (left open, its browser told) instead of closing
 * it. Only an extension connection can share; agents have no action for it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DaemonMessage } from '@bproxy/protocol';
import { FakeExtension, okData, startDaemon, until, type TestDaemon } from './harness';

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
  ext.send({
    type: 'user_request',
    requestId,
    request: { kind: 'share_tab', tabId, url: 'https://mail.example/inbox', title: 'Inbox' },
  });
  let answer: DaemonMessage | undefined;
  await until(() => {
    answer = ext.messages.find((m) => m.type === 'user_answer' && m.requestId === requestId);
    return answer !== undefined;
  }, 'the user answer');
  if (!answer) throw new Error('unreachable');
  return answer;
}

describe('sharing a tab from the browser', () => {
  it('puts the tab into a new bound session that agents drive, and answers the same session again', async () => {
    const answer = await share(77);
    expect(answer).toMatchObject({ type: 'user_answer', ok: true, data: { tab: 't1', created: true } });
    if (answer.type !== 'user_answer' || !answer.ok) throw new Error('expected a shared tab');
    const { session } = answer.data;
    const { sessions } = okData<{ sessions: { session: string; state: string; tab: string }[] }>(
      await daemon.call('session.list'),
    );
    expect(sessions).toEqual([expect.objectContaining({ session, state: 'bound', tab: 't1' })]);

    okData(await daemon.call('text', {}, session));
    expect(ext.received.at(-1)).toMatchObject({ action: 'text', target: { tabId: 77 } });

    const again = await share(77, 'again');
    expect(again).toMatchObject({ ok: true, data: { session, tab: 't1', created: false } });
  });

  it('releases a shared tab when its session closes: not closed, and its browser is told', async () => {
    const answer = await share(78);
    if (answer.type !== 'user_answer' || !answer.ok) throw new Error('expected a shared tab');
    const closed = okData<{ closedTabs: string[]; releasedTabs: string[] }>(
      await daemon.call('session.close', {}, answer.data.session),
    );
    expect(closed).toMatchObject({ closedTabs: [], releasedTabs: ['t1'] });
    expect(ext.received.some((r) => r.action === 'tab.close')).toBe(false);
    await until(() => ext.messages.some((m) => m.type === 'tab_released'), 'the release');
    expect(ext.messages.find((m) => m.type === 'tab_released')).toEqual({ type: 'tab_released', tabId: 78 });
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
