/**
 * In a Chrome whose chrome.debugger has no child sessions (before 125), a download a frame from another
 * site starts is not seen as the agent's: a `wait --download` that saw nothing says so, with the
 * browser's version, instead of only timing out. A Chrome that has them (and a launched browser) answers
 * the plain timeout.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FakeExtension, okData, startDaemon, type TestDaemon } from '../harness';

let daemon: TestDaemon | undefined;
let ext: FakeExtension | undefined;
afterEach(async () => {
  await ext?.drop();
  await daemon?.close();
  ext = undefined;
  daemon = undefined;
});

const ua = (major: number): string =>
  `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;

async function waitMessage(userAgent: string): Promise<{ code: string; message: string }> {
  daemon = await startDaemon();
  const d = daemon;
  ext = new FakeExtension(d);
  await ext.connect({ userAgent });
  const { session } = okData<{ session: string }>(await d.call('tab.open', { url: 'http://shop.test/' }));
  const answer = await d.call('wait', { download: true, timeoutMs: 50 }, session);
  if (answer.ok) throw new Error('the wait found a download');
  return { code: answer.error.code, message: answer.error.message };
}

describe("a frame's download the user's Chrome cannot show bproxy", () => {
  it('says in the wait --download timeout that an older Chrome leaves a download from a frame of another site to the user', async () => {
    const old = await waitMessage(ua(124));
    expect(old.code).toBe('WAIT_TIMEOUT');
    expect(old.message).toContain(
      "in this Chrome (124) a download a frame from another site starts is not seen as the agent's",
    );
  });

  it('answers the plain timeout in a Chrome that lets the extension see frames of another site', async () => {
    const current = await waitMessage(ua(125));
    expect(current.code).toBe('WAIT_TIMEOUT');
    expect(current.message).not.toContain('another site');
  });
});
