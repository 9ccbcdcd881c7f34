/**
 * The URLs agents may open, as the daemon enforces them for every surface and driver: only http:,
 * https: and about:blank reach a browser; file: only a browser the daemon launched with
 * --allow-file-urls, never the extension (the user's own Chrome) nor an attached one.
 */
import type { BproxyResponse } from '@bproxy/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeExtension, okData, startDaemon, type TestDaemon } from '../harness';
import { scriptedLauncher } from '../helpers/scripted-launcher';

const REFUSED = [
  'file:///etc/hostname',
  'file:///home/someone/.bproxy/token',
  'data:text/html,<script>1</script>',
  'view-source:https://example.org/',
  'javascript:alert(1)',
  'blob:https://example.org/0b1c',
  'chrome://settings',
  'chrome-extension://abcdefghijklmnopabcdefghijklmnop/panel.html?tab=1',
  'ftp://example.org/x',
  'example.org/relative',
];

let daemon: TestDaemon | undefined;
let ext: FakeExtension | undefined;
afterEach(async () => {
  await ext?.drop();
  await daemon?.close();
  ext = undefined;
  daemon = undefined;
});

function expectRefused(res: BproxyResponse, what: string): void {
  expect(res.ok, what).toBe(false);
  if (!res.ok) {
    expect(res.error.code, what).toBe('URL_NOT_ALLOWED');
    expect(res.error.hint, what).toMatch(/http: or https:/);
  }
}

describe('URLs an agent may open', () => {
  it('refuses every URL but http:, https: and about:blank on tab.open and navigate, before anything reaches the browser', async () => {
    daemon = await startDaemon();
    ext = new FakeExtension(daemon);
    await ext.connect();
    const { session } = okData<{ session: string }>(
      await daemon.call('tab.open', { url: 'https://x.test/' }),
    );
    const empty = okData<{ session: string }>(await daemon.call('session.create', {})).session;
    const sent = ext.received.length;
    const sessions = okData<{ sessions: unknown[] }>(await daemon.call('session.list', {})).sessions.length;
    for (const url of REFUSED) {
      expectRefused(await daemon.call('tab.open', { url }), `tab.open ${url}`);
      expectRefused(await daemon.call('tab.open', { url }, session), `tab.open -s ${url}`);
      expectRefused(await daemon.call('navigate', { url }, session), `navigate ${url}`);
      // navigate in a session without a tab would open one: refused all the same.
      expectRefused(await daemon.call('navigate', { url }, empty), `navigate (opening a tab) ${url}`);
    }
    expect(ext.received.length).toBe(sent);
    // A refused tab.open without -s leaves no session behind.
    expect(okData<{ sessions: unknown[] }>(await daemon.call('session.list', {})).sessions.length).toBe(
      sessions,
    );
  });

  it('forwards http:, https: and about:blank as they were parsed', async () => {
    daemon = await startDaemon();
    ext = new FakeExtension(daemon);
    await ext.connect();
    const { session } = okData<{ session: string }>(await daemon.call('tab.open', {}));
    expect(ext.received.at(-1)?.params).toMatchObject({ url: 'about:blank' });
    okData(await daemon.call('navigate', { url: 'HTTPS://Example.ORG' }, session));
    expect(ext.received.at(-1)).toMatchObject({
      action: 'navigate',
      params: { url: 'https://example.org/' },
    });
    okData(await daemon.call('tab.open', { url: 'http://x.test/a b' }, session));
    expect(ext.received.at(-1)).toMatchObject({ action: 'tab.open', params: { url: 'http://x.test/a%20b' } });
  });

  it('opens file: URLs only in a browser it launched with --allow-file-urls, never in the extension or an attached browser', async () => {
    const launched = scriptedLauncher('headless', 'launched');
    const attached = scriptedLauncher('attached', 'attached');
    daemon = await startDaemon({
      launchers: [
        { ...launched.launcher, allowFileUrls: true },
        // The option means nothing to a browser the daemon did not launch.
        { ...attached.launcher, allowFileUrls: true },
      ],
    });
    ext = new FakeExtension(daemon, undefined, 'chrome');
    await ext.connect();
    const file = 'file:///etc/hostname';

    const opened = okData<{ session: string }>(
      await daemon.call('tab.open', { url: file, browser: 'headless' }),
    );
    expect(launched.drivers[0]?.received.at(-1)?.params).toMatchObject({ url: file });
    okData(await daemon.call('navigate', { url: 'file:///etc/os-release' }, opened.session));
    expect(launched.drivers[0]?.received.at(-1)?.params).toMatchObject({ url: 'file:///etc/os-release' });

    // The extension, the default browser here: refused, with the browser named.
    const inChrome = await daemon.call('tab.open', { url: file });
    expectRefused(inChrome, 'the extension');
    if (!inChrome.ok) expect(inChrome.error.message).toMatch(/--allow-file-urls.*"chrome"/);
    const chromeTab = okData<{ session: string }>(await daemon.call('tab.open', { url: 'http://x.test/' }));
    expectRefused(
      await daemon.call('navigate', { url: file }, chromeTab.session),
      'navigate in the extension',
    );
    expect(ext.received.some((r) => JSON.stringify(r.params).includes('file:'))).toBe(false);

    expectRefused(await daemon.call('tab.open', { url: file, browser: 'attached' }), 'the attached browser');
    expect(attached.drivers.flatMap((d) => d.received).some((r) => r.action === 'tab.open')).toBe(false);
  });

  it('refuses file: URLs in a launched browser by default', async () => {
    const launched = scriptedLauncher('headless', 'launched');
    daemon = await startDaemon({ launchers: [launched.launcher] });
    expectRefused(await daemon.call('tab.open', { url: 'file:///etc/hostname' }), 'tab.open');
    const { session } = okData<{ session: string }>(await daemon.call('tab.open', { url: 'http://x.test/' }));
    expectRefused(await daemon.call('navigate', { url: 'file:///etc/hostname' }, session), 'navigate');
    expect(
      launched.drivers.flatMap((d) => d.received).some((r) => JSON.stringify(r.params).includes('file:')),
    ).toBe(false);
  });
});
