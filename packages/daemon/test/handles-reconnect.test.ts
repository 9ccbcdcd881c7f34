/**
 * Element handles across a driver reconnect: the daemon cannot know what the page did while the driver
 * was away, so a handle minted before the disconnect stays stale for good — even when the driver, back,
 * reports the very same URL by a navigation push or by a fresh read. New reads mint handles that work.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BproxyResponse } from '@bproxy/protocol';
import { startDaemonWithTab, until } from './harness';

let env: Awaited<ReturnType<typeof startDaemonWithTab>>;

beforeEach(async () => {
  env = await startDaemonWithTab();
});
afterEach(async () => {
  await env.close();
});

const code = (res: BproxyResponse) => (res.ok ? 'ok' : res.error.code);

/** Mints el1 on http://x/ (the fake reports that URL), then drops the driver and brings it back. */
async function mintThenReconnect(): Promise<void> {
  const { daemon, ext, session } = env;
  expect(code(await daemon.call('elements', {}, session))).toBe('ok');
  await ext.drop();
  await until(() => daemon.logLines.some((l) => l.includes('"event":"ws_disconnect"')), 'the disconnect');
  await ext.connect();
}

describe('element handles across a reconnect', () => {
  it('stay stale after a navigation push that reports the same URL', async () => {
    const { daemon, ext, session } = env;
    await mintThenReconnect();
    const pushes = daemon.logLines.filter((l) => l.includes('"event":"navigation"')).length;
    ext.send({ type: 'navigation', tabId: 100, url: 'http://x/', cause: 'committed' });
    await until(
      () => daemon.logLines.filter((l) => l.includes('"event":"navigation"')).length > pushes,
      'the navigation push',
    );
    expect(code(await daemon.call('click', { target: 'el1' }, session))).toBe('ELEMENT_HANDLE_STALE');
  });

  it('stay stale after a fresh read that reports the same URL, whose own handles work', async () => {
    const { daemon, session } = env;
    await mintThenReconnect();
    const links = await daemon.call('links', {}, session);
    expect(links.ok && (links.data as { links: { handle: string }[] }).links[0]?.handle).toBe('ln1');
    expect(code(await daemon.call('click', { target: 'el1' }, session))).toBe('ELEMENT_HANDLE_STALE');
    expect(code(await daemon.call('click', { target: 'ln1' }, session))).toBe('ok');
  });
});
