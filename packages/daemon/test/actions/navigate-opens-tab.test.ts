/**
 * An agent's first call is usually navigate. In a session with no current tab (none opened yet, or the
 * bound one gone) navigate opens one there — in the session's browser, paced, behind every gate — and
 * says which tab it opened. With a current tab it navigates that tab, as before.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeError, type BproxyResponse } from '@bproxy/protocol';
import { FakeExtension, okData, startDaemon, type TestDaemon } from '../harness';

let daemon: TestDaemon;
let ext: FakeExtension;

beforeEach(async () => {
  daemon = await startDaemon();
  ext = new FakeExtension(daemon, undefined, 'chrome');
});
afterEach(async () => {
  await ext.drop();
  await daemon.close();
});

const code = (res: BproxyResponse) => (res.ok ? 'ok' : res.error.code);
const newSession = async (params: Record<string, unknown> = {}) =>
  okData<{ session: string }>(await daemon.call('session.create', params)).session;
const tabs = async (session: string) =>
  okData<{ tabs: { tab: string; bound: boolean; url: string; browser: string }[] }>(
    await daemon.call('tab.list', {}, session),
  ).tabs;

describe('navigate with no current tab', () => {
  it('opens a tab in the session, binds it and says which', async () => {
    await ext.connect();
    const session = await newSession();
    const nav = await daemon.call('navigate', { url: 'http://x/first' }, session);
    expect(okData(nav)).toEqual({ url: 'http://x/first', title: 'Page', openedTab: 't1' });
    expect(ext.received.map((r) => [r.action, r.params])).toEqual([['tab.open', { url: 'http://x/first' }]]);
    expect(await tabs(session)).toEqual([
      expect.objectContaining({ tab: 't1', bound: true, url: 'http://x/first' }),
    ]);
    const again = await daemon.call('navigate', { url: 'http://x/second' }, session);
    expect(okData(again)).toEqual({ url: 'http://x/second', title: 'Page' });
    expect(ext.received.map((r) => r.action)).toEqual(['tab.open', 'navigate']);
  });

  it('opens a new tab when the bound one was closed in the browser', async () => {
    await ext.connect();
    const { session } = okData<{ session: string }>(await daemon.call('tab.open', { url: 'http://x/' }));
    ext.send({ type: 'tab_closed', tabId: 100 });
    const end = Date.now() + 3_000;
    while ((await tabs(session)).length > 0) if (Date.now() > end) throw new Error('the tab was kept');
    expect(okData(await daemon.call('navigate', { url: 'http://x/back' }, session))).toMatchObject({
      openedTab: 't2',
    });
  });

  it('opens the tab in the browser the session was created for', async () => {
    await ext.connect();
    const edge = new FakeExtension(daemon, undefined, 'edge');
    await edge.connect();
    try {
      const session = await newSession({ browser: 'chrome' });
      okData(await daemon.call('navigate', { url: 'http://x/' }, session));
      expect(await tabs(session)).toEqual([expect.objectContaining({ browser: 'chrome' })]);
      expect(edge.received).toEqual([]);
    } finally {
      await edge.drop();
    }
  });

  it('is paced like a navigation: the next one waits its turn', async () => {
    await daemon.close();
    daemon = await startDaemon({ pacingOverride: 'human', random: () => 0 });
    ext = new FakeExtension(daemon, undefined, 'chrome');
    await ext.connect();
    const session = await newSession();
    expect(code(await daemon.call('navigate', { url: 'http://x/' }, session))).toBe('ok');
    const next = await daemon.call('navigate', { url: 'http://x/2' }, session, { deadlineMs: 400 });
    expect(code(next)).toBe('TIMEOUT');
    expect(ext.received.map((r) => r.action)).toEqual(['tab.open']);
  });

  it('tells a read with no tab to open one, not that no browser exists, when one can be launched', async () => {
    await daemon.close();
    let launched = 0;
    const launcher = {
      name: 'headless',
      kind: 'launched' as const,
      start: () => {
        launched++;
        return Promise.reject(new Error('not in this test'));
      },
    };
    daemon = await startDaemon({ launchers: [launcher] });
    ext = new FakeExtension(daemon, undefined, 'chrome');
    const session = await newSession();
    expect(code(await daemon.call('snapshot', {}, session))).toBe('TAB_NOT_FOUND');
    expect(launched).toBe(0);
  });

  it('keeps every gate: no browser, a paused session, no session', async () => {
    const session = await newSession();
    expect(code(await daemon.call('navigate', { url: 'http://x/' }, session))).toBe('NO_EXTENSION');
    await ext.connect();
    ext.behaviour = (req) =>
      req.action === 'tab.open'
        ? { ok: false as const, error: makeError('HUMAN_REQUIRED', 'a login wall') }
        : ext.defaultAnswer(req);
    expect(code(await daemon.call('navigate', { url: 'http://x/' }, session))).toBe('HUMAN_REQUIRED');
    const sent = ext.received.length;
    expect(code(await daemon.call('navigate', { url: 'http://x/' }, session))).toBe('HUMAN_REQUIRED');
    expect(ext.received).toHaveLength(sent);
    expect(code(await daemon.call('navigate', { url: 'http://x/' }))).toBe('SESSION_REQUIRED');
  });
});
