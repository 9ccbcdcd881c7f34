/**
 * When a session's bound tab disappears under it (closed in the browser, or lost with its whole
 * browser), the next action answers TAB_NOT_FOUND with a message that says which tab went and why,
 * until another tab is bound.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BproxyResponse } from '@bproxy/protocol';
import { FakeExtension, okData, startDaemon, type TestDaemon } from './harness';

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

async function tabsOf(session: string): Promise<string[]> {
  const listed = await daemon.call('tab.list', {}, session);
  return okData<{ tabs: { tab: string }[] }>(listed).tabs.map((t) => t.tab);
}

/** Pushes tab_closed for the session's only tab and waits until the daemon has dropped it. */
async function closeUnderneath(session: string, reason?: 'closed' | 'browser_gone'): Promise<void> {
  ext.send({ type: 'tab_closed', tabId: 100, ...(reason === undefined ? {} : { reason }) });
  const end = Date.now() + 3_000;
  while ((await tabsOf(session)).length > 0) {
    if (Date.now() > end) throw new Error('the daemon kept the closed tab');
  }
}

function error(res: BproxyResponse): { code: string; message: string } {
  if (res.ok) throw new Error('expected a failure');
  return res.error;
}

describe('a bound tab that went away', () => {
  it('says the tab was lost with its browser when the driver reports browser_gone', async () => {
    const session = okData<{ session: string }>(await daemon.call('tab.open', { url: 'http://x/' })).session;
    await closeUnderneath(session, 'browser_gone');
    const failed = error(await daemon.call('text', {}, session));
    expect(failed.code).toBe('TAB_NOT_FOUND');
    expect(failed.message).toBe(
      `session ${session} has no bound tab: t1 was lost when its browser went away`,
    );
  });

  it('says the tab was closed in the browser when the driver gives no reason', async () => {
    const session = okData<{ session: string }>(await daemon.call('tab.open', { url: 'http://x/' })).session;
    await closeUnderneath(session);
    const failed = error(await daemon.call('click', { target: { selector: '#a' } }, session));
    expect(failed).toMatchObject({ code: 'TAB_NOT_FOUND' });
    expect(failed.message).toMatch(/t1 was closed in the browser$/);
  });

  it('forgets the reason once another tab is bound, and after an explicit unbind', async () => {
    const session = okData<{ session: string }>(await daemon.call('tab.open', { url: 'http://x/' })).session;
    await closeUnderneath(session, 'browser_gone');
    okData(await daemon.call('tab.open', { url: 'http://x/' }, session));
    expect((await daemon.call('text', {}, session)).ok).toBe(true);
    okData(await daemon.call('session.unbind', {}, session));
    expect(error(await daemon.call('text', {}, session)).message).toBe(`session ${session} has no bound tab`);
  });
});
