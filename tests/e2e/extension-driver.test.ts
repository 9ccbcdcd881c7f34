/**
 * The built extension as a browser driver, in real headless Chromium, against a scripted daemon
 * (tests/kit/scripted-daemon.ts): pairing through the popup, hello, every kind of forwarded action,
 * dialogs, deadlines, exactly-once across replays and a stopped service worker, pushes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '@bproxy/protocol';
import { FakeDaemon } from '../kit/scripted-daemon';
import { pairThroughPopup, launchWithExtension, type ExtensionBrowser } from '../kit/extension';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { until } from '../kit/wait';

let browser: ExtensionBrowser;
let pages: FixtureServer;
let daemon: FakeDaemon;

/** Lets a test run alone (vitest -t): pairs first when the pairing tests did not run. */
async function ensurePaired(): Promise<void> {
  if (daemon.connected) return;
  await pairThroughPopup(browser, daemon.pairingCode, daemon.port);
  await until('the extension to connect', () => daemon.connected);
}

async function openTab(page: string): Promise<number> {
  await ensurePaired();
  const opened = await daemon.request('tab.open', { url: pages.url(page) });
  if (!opened.ok) throw new Error(`tab.open failed: ${JSON.stringify(opened.error)}`);
  return (opened.data as { tabId: number }).tabId;
}

function data<T = Record<string, unknown>>(response: Awaited<ReturnType<FakeDaemon['request']>>): T {
  if (!response.ok) throw new Error(`expected ok, got ${JSON.stringify(response.error)}`);
  return response.data as T;
}

beforeAll(async () => {
  pages = await serveFixtures();
  daemon = new FakeDaemon();
  await daemon.start();
  browser = await launchWithExtension();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
  await pages?.close();
});

describe('extension driver against a scripted daemon', () => {
  it('explains a wrong pairing code in words and does not connect', async () => {
    const message = await pairThroughPopup(browser, 'WXYZ-WXYZ', daemon.port);
    expect(message).toMatch(/does not know that code/);
    expect(daemon.connections).toBe(0);
  }, 30_000);

  it('pairs through the popup and says hello with the protocol version', async () => {
    const message = await pairThroughPopup(browser, 'abcd efgh', daemon.port);
    expect(message).toMatch(/Paired/);
    await until('the extension to connect', () => daemon.connected);
    const hello = daemon.hellos[0];
    expect(hello?.protocolVersion).toBe(PROTOCOL_VERSION);
    expect(hello?.client.kind).toBe('extension');
    expect(hello?.client.instanceId).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(daemon.claimOrigins.at(-1)).toBe(`chrome-extension://${browser.extensionId}`);
  }, 30_000);

  it('opens a tab, reads it, and pushes its navigation', async () => {
    const tabId = await openTab('ext-form.html');
    const text = data<{ text: string; title: string }>(await daemon.request('text', {}, tabId));
    expect(text.text).toContain('Order form');
    expect(text.title).toBe('Extension form');
    expect(daemon.pushes).toContainEqual({
      type: 'navigation',
      tabId,
      url: pages.url('ext-form.html'),
      cause: 'committed',
    });
  }, 30_000);

  it('fills, selects and clicks, reporting a navigation the click started', async () => {
    const tabId = await openTab('ext-form.html');
    const filled = data(await daemon.request('fill', { target: { selector: '#name' }, value: 'Ada' }, tabId));
    expect(filled).toMatchObject({ navigated: false, title: 'Extension form' });
    const selected = data(
      await daemon.request('select', { target: { selector: '#size' }, values: ['l'] }, tabId),
    );
    expect(selected.selected).toEqual(['l']);
    const clicked = data(await daemon.request('click', { target: { selector: '#send' } }, tabId));
    expect(clicked).toMatchObject({ navigated: true, title: 'Extension done' });
    expect(String(clicked.url)).toContain('name=Ada');
    expect(String(clicked.url)).toContain('size=l');
  }, 30_000);

  it('navigates, goes back and forward, reloads, and fails cleanly without history', async () => {
    const tabId = await openTab('ext-form.html');
    expect(data(await daemon.request('navigate', { url: pages.url('ext-done.html') }, tabId))).toMatchObject({
      title: 'Extension done',
    });
    expect(data(await daemon.request('back', {}, tabId))).toMatchObject({ title: 'Extension form' });
    expect(data(await daemon.request('forward', {}, tabId))).toMatchObject({ title: 'Extension done' });
    expect(data(await daemon.request('reload', {}, tabId))).toMatchObject({ title: 'Extension done' });
    const noForward = await daemon.request('forward', {}, tabId);
    expect(noForward.ok ? null : noForward.error.code).toBe('NAVIGATION_FAILED');
    const refused = await daemon.request('navigate', { url: 'http://127.0.0.1:1/' }, tabId);
    expect(refused.ok ? null : refused.error.code).toBe('NAVIGATION_FAILED');
  }, 45_000);

  it('reports an alert opened by a click instead of hanging, refuses other actions, and answers it', async () => {
    const tabId = await openTab('ext-dialogs.html');
    const clicked = data(
      await daemon.request('click', { target: { selector: '#alert' } }, tabId, { timeoutMs: 10_000 }),
    );
    expect(clicked.dialog).toEqual({ type: 'alert', message: 'Saved!' });
    const blocked = await daemon.request('text', {}, tabId);
    expect(blocked.ok ? null : blocked.error.code).toBe('DIALOG_OPEN');
    expect(data(await daemon.request('dialog', { accept: true }, tabId))).toEqual({
      type: 'alert',
      message: 'Saved!',
      accepted: true,
    });
    expect(data<{ text: string }>(await daemon.request('text', {}, tabId)).text).toContain('after alert');
    const none = await daemon.request('dialog', { accept: true }, tabId);
    expect(none.ok ? null : none.error.code).toBe('NO_DIALOG');
  }, 30_000);

  it('dismisses a confirm and types into a prompt', async () => {
    const tabId = await openTab('ext-dialogs.html');
    await daemon.request('click', { target: { selector: '#confirm' } }, tabId);
    expect(data(await daemon.request('dialog', { accept: false }, tabId))).toMatchObject({
      type: 'confirm',
      accepted: false,
    });
    expect(data<{ text: string }>(await daemon.request('text', {}, tabId)).text).toContain('confirm: false');
    await daemon.request('click', { target: { selector: '#prompt' } }, tabId);
    expect(data(await daemon.request('dialog', { accept: true, promptText: 'Bob' }, tabId))).toMatchObject({
      type: 'prompt',
    });
    expect(data<{ text: string }>(await daemon.request('text', {}, tabId)).text).toContain('prompt: Bob');
  }, 30_000);

  it('answers DIALOG_OPEN when an alert blocks a page load, and loads on once it is accepted', async () => {
    const tabId = await openTab('ext-form.html');
    const started = Date.now();
    const blocked = await daemon.request('navigate', { url: pages.url('ext-alert-on-load.html') }, tabId, {
      timeoutMs: 15_000,
    });
    expect(blocked.ok ? null : blocked.error).toMatchObject({
      code: 'DIALOG_OPEN',
      details: { dialog: { type: 'alert', message: 'Welcome!' } },
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    await daemon.request('dialog', { accept: true }, tabId);
    const text = await until('the rest of the page', async () => {
      const answer = await daemon.request('text', {}, tabId);
      return answer.ok && String((answer.data as { text: string }).text).includes('Loaded after')
        ? answer
        : undefined;
    });
    expect(text.ok).toBe(true);
  }, 30_000);

  it('never runs a request that arrives after its deadline', async () => {
    const tabId = await openTab('ext-counter.html');
    const late = await daemon.request('click', { target: { selector: '#inc' } }, tabId, {
      deadline: Date.now() - 1,
    });
    expect(late.ok ? null : late.error.code).toBe('TIMEOUT');
    expect(data<{ text: string }>(await daemon.request('text', {}, tabId)).text).toContain('Clicks: 0');
  }, 30_000);

  it('answers a replayed request id from its record instead of clicking twice', async () => {
    const tabId = await openTab('ext-counter.html');
    const before = pages.hits('/count/click');
    const first = await daemon.request('click', { target: { selector: '#inc' } }, tabId, {
      id: 'replay-click-1',
    });
    const again = await daemon.request('click', { target: { selector: '#inc' } }, tabId, {
      id: 'replay-click-1',
    });
    expect(again).toEqual(first);
    expect(data<{ text: string }>(await daemon.request('text', {}, tabId)).text).toContain('Clicks: 1');
    await until('the click beacon', () => pages.hits('/count/click') === before + 1);
  }, 30_000);

  it('completes a request exactly once when the service worker is stopped mid-request', async () => {
    const tabId = await openTab('ext-counter.html');
    const connectionsBefore = daemon.connections;
    const answer = daemon.request('click', { target: { selector: '#slow' } }, tabId, {
      id: 'stopped-worker-click',
      timeoutMs: 30_000,
    });
    // The slow click reports its start to the server, then keeps the page busy for 1.5 s.
    await until('the slow click to start', () => pages.hits('/count/slow-start') === 1);
    await browser.stopServiceWorkers();
    // A stopped worker restarts on the next event it listens for; a navigation is the quickest.
    const poke = await browser.context.newPage();
    await poke.goto(pages.url('ext-done.html'));
    await poke.close();
    const response = await answer;
    expect(response.ok).toBe(true);
    expect(daemon.connections).toBeGreaterThan(connectionsBefore);
    expect(data<{ text: string }>(await daemon.request('text', {}, tabId)).text).toContain('Clicks: 1');
    const log = data<{ entries: { event: string; id?: string; resumed?: boolean }[] }>(
      await daemon.request('debug.log', {}),
    );
    expect(log.entries).toContainEqual(
      expect.objectContaining({ event: 'request_done', id: 'stopped-worker-click', resumed: true }),
    );
  }, 45_000);

  it('takes a screenshot with its size', async () => {
    const tabId = await openTab('ext-form.html');
    const shot = data<{ mimeType: string; data: string; width: number; height: number }>(
      await daemon.request('screenshot', {}, tabId),
    );
    expect(shot.mimeType).toBe('image/png');
    expect(Buffer.from(shot.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(shot.width).toBeGreaterThan(100);
    expect(shot.height).toBeGreaterThan(100);
    const full = data<{ height: number }>(await daemon.request('screenshot', { fullPage: true }, tabId));
    expect(full.height).toBeGreaterThan(3000);
    // An element far below the fold: the clip is in page coordinates, whatever the scroll position.
    const element = data<{ width: number; height: number }>(
      await daemon.request(
        'screenshot',
        { target: { selector: '#bottom' }, format: 'jpeg', quality: 80 },
        tabId,
      ),
    );
    expect(element.height).toBeGreaterThan(5);
    expect(element.height).toBeLessThan(100);
    expect(element.width).toBeGreaterThan(50);
  }, 30_000);

  it('refuses with HUMAN_REQUIRED after navigating to a CAPTCHA page', async () => {
    const tabId = await openTab('ext-form.html');
    const answer = await daemon.request('navigate', { url: pages.url('ext-captcha.html') }, tabId);
    expect(answer.ok).toBe(false);
    if (!answer.ok) {
      expect(answer.error.code).toBe('HUMAN_REQUIRED');
      expect(answer.error.message).not.toBe('');
    }
    // Page actions check first, so nothing is read or clicked on the page until a person deals with it.
    const read = await daemon.request('text', {}, tabId);
    expect(read.ok ? null : read.error.code).toBe('HUMAN_REQUIRED');
  }, 30_000);

  it('pins, unpins and closes a tab, pushing tab_closed', async () => {
    const tabId = await openTab('ext-form.html');
    expect(data(await daemon.request('tab.pin', {}, tabId))).toMatchObject({ tabId, pinned: true });
    expect(data(await daemon.request('tab.unpin', {}, tabId))).toMatchObject({ tabId, pinned: false });
    expect(data(await daemon.request('tab.close', {}, tabId))).toEqual({ closed: true });
    await until('the tab_closed push', () =>
      daemon.pushes.some((p) => p.type === 'tab_closed' && p.tabId === tabId),
    );
  }, 30_000);

  it('returns its own log lines for debug.log', async () => {
    await ensurePaired();
    const log = data<{ entries: { event: string }[] }>(await daemon.request('debug.log', { limit: 50 }));
    expect(log.entries.length).toBeGreaterThan(0);
    expect(log.entries.some((e) => e.event === 'request_done')).toBe(true);
  }, 30_000);

  it('logged no errors in the service worker', () => {
    expect(browser.workerErrors).toEqual([]);
  });

  it('reconnects at once after the connection drops', async () => {
    const before = daemon.connections;
    daemon.dropConnection();
    await until('a reconnect', () => daemon.connections > before && daemon.connected, 5_000);
  }, 30_000);
});
