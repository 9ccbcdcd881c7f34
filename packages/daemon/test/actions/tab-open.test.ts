/**
 * tab.open is a forwarded action like any other: paced on its session (the one it creates without -s
 * too, whose pacing clock it starts) and pausing that session when the driver answers HUMAN_REQUIRED.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeError, type BproxyResponse } from '@bproxy/protocol';
import { FakeExtension, okData, startDaemon, type TestDaemon } from '../harness';

let daemon: TestDaemon;
let ext: FakeExtension;

beforeEach(async () => {
  // Human pacing with the shortest draw of every range: a navigation waits 1.5 s after the last action.
  daemon = await startDaemon({ pacingOverride: 'human', random: () => 0 });
  ext = new FakeExtension(daemon);
  await ext.connect();
});
afterEach(async () => {
  await ext.drop();
  await daemon.close();
});

const code = (res: BproxyResponse) => (res.ok ? 'ok' : res.error.code);
const humanRequired = { ok: false as const, error: makeError('HUMAN_REQUIRED', 'a CAPTCHA is shown') };

interface Info {
  session: string;
  state: string;
  paused: boolean;
  pauseReason?: string;
}

describe('tab.open', () => {
  it('without -s starts the new session’s pacing clock: a navigate right after it waits its turn', async () => {
    const opened = okData<{ session: string }>(await daemon.call('tab.open', { url: 'http://x/' }));
    // 1.5 s of pacing cannot fit a 400 ms deadline: refused at once, never sent.
    const nav = await daemon.call('navigate', { url: 'http://x/2' }, opened.session, { deadlineMs: 400 });
    expect(code(nav)).toBe('TIMEOUT');
    expect(ext.received.map((r) => r.action)).toEqual(['tab.open']);
  });

  it('with -s waits for the session’s pacing slot like any navigation', async () => {
    const opened = okData<{ session: string }>(await daemon.call('tab.open', { url: 'http://x/' }));
    const second = await daemon.call('tab.open', { url: 'http://x/2' }, opened.session, { deadlineMs: 400 });
    expect(code(second)).toBe('TIMEOUT');
    expect(ext.received.map((r) => r.action)).toEqual(['tab.open']);
  });

  it('pauses the session on a HUMAN_REQUIRED answer and refuses what follows until resume', async () => {
    const fast = await daemon.call('session.create', { pacing: 'fast' });
    const { session } = okData<{ session: string }>(fast);
    ext.behaviour = (req) => (req.action === 'tab.open' ? humanRequired : ext.defaultAnswer(req));
    const refused = await daemon.call('tab.open', { url: 'http://x/' }, session);
    expect(refused.ok === false && refused.error).toMatchObject({
      code: 'HUMAN_REQUIRED',
      reason: 'a CAPTCHA is shown',
    });
    const info = okData<{ sessions: Info[] }>(await daemon.call('session.list')).sessions.find(
      (s) => s.session === session,
    );
    expect(info).toMatchObject({ state: 'paused', paused: true, pauseReason: 'a CAPTCHA is shown' });
    const sent = ext.received.length;
    expect(code(await daemon.call('tab.open', { url: 'http://x/2' }, session))).toBe('HUMAN_REQUIRED');
    expect(ext.received).toHaveLength(sent);
    await daemon.call('session.resume', {}, session);
    ext.behaviour = (req) => ext.defaultAnswer(req);
    expect(code(await daemon.call('tab.open', { url: 'http://x/2' }, session))).toBe('ok');
  });

  it('without -s keeps the session it created paused, and names it in the answer', async () => {
    ext.behaviour = (req) => (req.action === 'tab.open' ? humanRequired : ext.defaultAnswer(req));
    const refused = await daemon.call('tab.open', { url: 'http://x/' });
    if (refused.ok) throw new Error('expected HUMAN_REQUIRED');
    const session = refused.error.details?.session;
    expect(typeof session).toBe('string');
    expect(refused.error.message).toContain(String(session));
    const sessions = okData<{ sessions: Info[] }>(await daemon.call('session.list')).sessions;
    expect(sessions).toEqual([expect.objectContaining({ session, paused: true })]);
  });

  it('without -s leaves no session behind when the open fails otherwise', async () => {
    ext.behaviour = (req) =>
      req.action === 'tab.open'
        ? { ok: false as const, error: makeError('NAVIGATION_FAILED', 'net::ERR_NAME_NOT_RESOLVED') }
        : ext.defaultAnswer(req);
    expect(code(await daemon.call('tab.open', { url: 'http://nowhere.invalid/' }))).toBe('NAVIGATION_FAILED');
    expect(okData<{ sessions: Info[] }>(await daemon.call('session.list')).sessions).toEqual([]);
  });
});
