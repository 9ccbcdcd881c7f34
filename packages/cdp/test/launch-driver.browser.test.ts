import { describe, expect, it } from 'vitest';
import { driverResultSchema, PROTOCOL_VERSION, SNAPSHOT_REF_OPEN, type ActionName } from '@bproxy/protocol';
import { useLaunchedDriver } from './helpers/driver-fixture';

const f = useLaunchedDriver();

function expectValid(action: ActionName, data: unknown): void {
  expect(driverResultSchema(action).safeParse(data).success).toBe(true);
}

describe('CDP driver: tabs, navigation and reads', { timeout: 30_000 }, () => {
  it('says hello as a cdp client named headless with the browser user agent', () => {
    const hello = f.daemon.messages.find((m) => m.type === 'hello');
    expect(hello).toMatchObject({
      type: 'hello',
      protocolVersion: PROTOCOL_VERSION,
      client: { kind: 'cdp', name: 'headless' },
    });
    expect(hello?.type === 'hello' && hello.client.userAgent).toMatch(/Chrome/);
  });

  it('opens a tab on a URL and answers a driver tab', async () => {
    const tab = await f.daemon.ok('tab.open', { url: f.server.url('/counter.html') });
    expectValid('tab.open', tab);
    expect(tab).toMatchObject({ url: f.server.url('/counter.html'), title: 'Counter', pinned: false });
  });

  it('gives every tab its own number and closes one with a tab_closed push', async () => {
    const a = await f.openTab('/counter.html');
    const b = await f.openTab('/counter.html');
    expect(a).not.toBe(b);
    expect(await f.daemon.ok('tab.close', {}, { tabId: a })).toEqual({ closed: true });
    await f.daemon.waitFor(
      () => f.daemon.messages.some((m) => m.type === 'tab_closed' && m.tabId === a),
      'tab_closed',
    );
    const gone = await f.daemon.request('text', {}, { tabId: a });
    expect(gone.ok === false && gone.error.code).toBe('TAB_NOT_FOUND');
    expect((await f.daemon.ok<{ text: string }>('text', {}, { tabId: b })).text).toContain('Counter');
  });

  it('keeps a pinned flag per tab since headless has no tab strip', async () => {
    const tabId = await f.openTab('/counter.html');
    expect(await f.daemon.ok('tab.pin', {}, { tabId })).toMatchObject({
      tabId,
      pinned: true,
      title: 'Counter',
    });
    expect(await f.daemon.ok('tab.unpin', {}, { tabId })).toMatchObject({ tabId, pinned: false });
    const log = await f.daemon.ok<{ entries: { msg: string }[] }>('debug.log', { limit: 50 });
    expect(log.entries.some((e) => e.msg.includes('driver flag only'))).toBe(true);
  });

  it('navigates, goes back and forward, reloads, and pushes each commit', async () => {
    const tabId = await f.openTab('/counter.html');
    expect(await f.daemon.ok('navigate', { url: f.server.url('/forms.html') }, { tabId })).toEqual({
      url: f.server.url('/forms.html'),
      title: 'Forms',
    });
    const pushed = (url: string) =>
      f.daemon.waitFor(
        () =>
          f.daemon.messages.some(
            (m) => m.type === 'navigation' && m.tabId === tabId && m.url === url && m.cause === 'committed',
          ),
        `push of ${url}`,
      );
    await pushed(f.server.url('/forms.html'));
    expect(await f.daemon.ok('back', {}, { tabId })).toMatchObject({ title: 'Counter' });
    expect(await f.daemon.ok('forward', {}, { tabId })).toMatchObject({ title: 'Forms' });
    expect(await f.daemon.ok('reload', { waitUntil: 'domcontentloaded' }, { tabId })).toMatchObject({
      title: 'Forms',
    });
    const forward = await f.daemon.request('forward', {}, { tabId });
    expect(forward.ok === false && forward.error.code).toBe('NAVIGATION_FAILED');
  });

  it('reports a URL that cannot load as NAVIGATION_FAILED', async () => {
    const tabId = await f.openTab('/counter.html');
    const response = await f.daemon.request('navigate', { url: 'http://127.0.0.1:1/' }, { tabId });
    expect(response.ok === false && response.error.code).toBe('NAVIGATION_FAILED');
  });

  it('pushes history_state for a client-side route change', async () => {
    const tabId = await f.openTab('/spa/home');
    const effects = await f.daemon.ok('click', { target: { selector: 'a[data-view=settings]' } }, { tabId });
    expect(effects).toMatchObject({
      navigated: true,
      url: f.server.url('/spa/settings'),
      title: 'SPA settings',
    });
    await f.daemon.waitFor(
      () =>
        f.daemon.messages.some(
          (m) =>
            m.type === 'navigation' &&
            m.tabId === tabId &&
            m.cause === 'history_state' &&
            m.url === f.server.url('/spa/settings'),
        ),
      'history_state push',
    );
  });

  it('reads links, elements, a snapshot and inspects an element, all valid driver results', async () => {
    const tabId = await f.openTab('/list.html');
    const links = await f.daemon.ok<{
      links: { ref: string; href: string }[];
      total: number;
      truncated: boolean;
    }>('links', { limit: 5 }, { tabId });
    expectValid('links', links);
    expect(links.links).toHaveLength(5);
    expect(links.truncated).toBe(true);

    await f.daemon.ok('navigate', { url: f.server.url('/forms.html') }, { tabId });
    const elements = await f.daemon.ok<{ elements: { ref: string; name: string; role: string }[] }>(
      'elements',
      {},
      { tabId },
    );
    expectValid('elements', elements);
    const name = elements.elements.find((e) => e.name === 'Full name');
    expect(name?.role).toBe('textbox');

    const inspected = await f.daemon.ok('inspect', { target: { ref: name?.ref } }, { tabId });
    expectValid('inspect', inspected);
    expect(inspected).toMatchObject({ tag: 'input', visible: true, enabled: true });

    const snapshot = await f.daemon.ok<{ snapshot: string; refs: unknown[] }>('snapshot', {}, { tabId });
    expectValid('snapshot', snapshot);
    expect(snapshot.snapshot).toContain(SNAPSHOT_REF_OPEN);
    expect(snapshot.refs.length).toBeGreaterThan(5);
  });

  it('takes viewport, full-page, jpeg and element screenshots', async () => {
    const tabId = await f.openTab('/long.html');
    const viewport = await f.daemon.ok<{ mimeType: string; data: string; width: number; height: number }>(
      'screenshot',
      {},
      { tabId },
    );
    expectValid('screenshot', viewport);
    expect(viewport.mimeType).toBe('image/png');
    const full = await f.daemon.ok<{ height: number }>('screenshot', { fullPage: true }, { tabId });
    expect(full.height).toBeGreaterThan(5000);
    expect(full.height).toBeGreaterThan(viewport.height);
    const jpeg = await f.daemon.ok<{ mimeType: string; data: string }>(
      'screenshot',
      { format: 'jpeg', quality: 50 },
      { tabId },
    );
    expect(jpeg.mimeType).toBe('image/jpeg');
    expect(Buffer.from(jpeg.data, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    const element = await f.daemon.ok<{ width: number; height: number }>(
      'screenshot',
      { target: { selector: '#bottom-button' } },
      { tabId },
    );
    expect(element.width).toBeLessThan(300);
    expect(element.height).toBeLessThan(60);
  });

  it('rejects params outside the forwarded schema and actions the daemon keeps', async () => {
    const tabId = await f.openTab('/counter.html');
    const bad = await f.daemon.request('click', { target: { selector: '#inc' }, force: true }, { tabId });
    expect(bad.ok === false && bad.error.code).toBe('BAD_REQUEST');
    expect(bad.ok === false && bad.error.message).toContain('force');
    const local = await f.daemon.request('session.list', {});
    expect(local.ok === false && local.error.code).toBe('UNSUPPORTED_ACTION');
  });
});
