/**
 * session.close closes what it can reach and says so: tabs whose browser took the close are
 * `closedTabs`, tabs whose browser is away (or refused) are only forgotten (`forgottenTabs`). The
 * tab.close sub-requests it sends carry ids derived from its own, within the 128-character limit.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RequestIdSchema, makeError } from '@bproxy/protocol';
import { FakeExtension, okData, startDaemon, until, type TestDaemon } from '../harness';

let daemon: TestDaemon;
let chrome: FakeExtension;
let edge: FakeExtension;

beforeEach(async () => {
  daemon = await startDaemon();
  chrome = new FakeExtension(daemon, undefined, 'chrome');
  edge = new FakeExtension(daemon, undefined, 'edge');
  await chrome.connect();
  await edge.connect();
});
afterEach(async () => {
  await chrome.drop();
  await edge.drop();
  await daemon.close();
});

async function sessionWithTabs(): Promise<string> {
  const { session } = okData<{ session: string }>(
    await daemon.call('tab.open', { url: 'http://x/', browser: 'chrome' }),
  );
  okData(await daemon.call('tab.open', { url: 'http://y/', browser: 'edge' }, session));
  return session;
}

describe('session.close', () => {
  it('tells the tabs it closed from those it only forgot because their browser is disconnected', async () => {
    const session = await sessionWithTabs();
    await edge.drop();
    await until(() => daemon.logLines.some((l) => l.includes('"event":"ws_disconnect"')), 'the disconnect');
    const closed = await daemon.call('session.close', {}, session);
    expect(okData(closed)).toEqual({ session, closedTabs: ['t1'], forgottenTabs: ['t2'], releasedTabs: [] });
    expect(chrome.received.filter((r) => r.action === 'tab.close')).toHaveLength(1);
  });

  it('counts a tab whose browser refused the close as forgotten', async () => {
    const session = await sessionWithTabs();
    edge.behaviour = (req) =>
      req.action === 'tab.close'
        ? { ok: false, error: makeError('DRIVER_ERROR', 'the browser would not close it') }
        : edge.defaultAnswer(req);
    const closed = await daemon.call('session.close', {}, session);
    expect(okData(closed)).toEqual({ session, closedTabs: ['t1'], forgottenTabs: ['t2'], releasedTabs: [] });
  });

  it('keeps its tab.close sub-request ids within the request-id limit, distinct per tab', async () => {
    const session = await sessionWithTabs();
    okData(await daemon.call('tab.open', { url: 'http://z/', browser: 'chrome' }, session));
    const id = `close-${'x'.repeat(122)}`;
    expect(id).toHaveLength(128);
    const closed = await daemon.call('session.close', {}, session, { id });
    expect(okData(closed)).toEqual({
      session,
      closedTabs: ['t1', 't2', 't3'],
      forgottenTabs: [],
      releasedTabs: [],
    });
    const ids = [...chrome.received, ...edge.received]
      .filter((r) => r.action === 'tab.close')
      .map((r) => r.id);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    for (const sub of ids) expect(RequestIdSchema.safeParse(sub).success, sub).toBe(true);
  });
});
