import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDevToolsActivePort, startCdpDriver } from '../src/index';
import { startExternalChromium, type ExternalChromium } from './helpers/external-chromium';
import { FakeDaemon } from './helpers/fake-daemon';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server';
import { isAlive, processesMentioning, until } from './helpers/processes';

let server: FixtureServer;
let chromium: ExternalChromium;

beforeAll(async () => {
  server = await startFixtureServer();
  chromium = await startExternalChromium();
}, 30_000);

afterAll(async () => {
  await server?.close();
  await chromium?.stop();
  if (chromium !== undefined)
    await until(() => processesMentioning(chromium.userDataDir).length === 0, 'no Chromium left running');
}, 30_000);

async function pageTargets(port: number): Promise<{ url: string }[]> {
  const response = await fetch(`http://127.0.0.1:${port}/json/list`);
  const targets = (await response.json()) as { type: string; url: string }[];
  return targets.filter((t) => t.type === 'page');
}

describe('CDP driver attached to a running browser', { timeout: 30_000 }, () => {
  it('attaches through the DevToolsActivePort of a profile, and leaves the browser running on close', async () => {
    const daemon = new FakeDaemon();
    const driver = await startCdpDriver(
      { mode: 'attach', userDataDir: chromium.userDataDir },
      daemon.driverEnd,
    );
    try {
      expect(daemon.messages[0]).toMatchObject({ type: 'hello', client: { kind: 'cdp', name: 'attached' } });
      const tab = await daemon.ok<{ tabId: number }>('tab.open', { url: server.url('/counter.html') });
      await daemon.ok('click', { target: { selector: '#inc' } }, { tabId: tab.tabId });
      expect((await daemon.ok<{ text: string }>('text', {}, { tabId: tab.tabId })).text).toContain(
        'Count: 1',
      );
    } finally {
      await driver.close();
    }
    expect(daemon.closedReason).toBeDefined();
    expect(chromium.process.pid !== undefined && isAlive(chromium.process.pid)).toBe(true);
    const { port } = await readDevToolsActivePort(chromium.userDataDir);
    expect((await fetch(`http://127.0.0.1:${port}/json/version`)).ok).toBe(true);
  });

  it('attaches by port, and closes only its own tabs when asked to', async () => {
    const { port } = await readDevToolsActivePort(chromium.userDataDir);
    const before = (await pageTargets(port)).length;
    const daemon = new FakeDaemon();
    const driver = await startCdpDriver({ mode: 'attach', port, closeTabsOnStop: true }, daemon.driverEnd);
    await daemon.ok('tab.open', { url: server.url('/forms.html') });
    expect((await pageTargets(port)).some((t) => t.url.endsWith('/forms.html'))).toBe(true);
    await driver.close();
    const after = await pageTargets(port);
    expect(after.some((t) => t.url.endsWith('/forms.html'))).toBe(false);
    expect(after.length).toBe(before);
    expect(chromium.process.pid !== undefined && isAlive(chromium.process.pid)).toBe(true);
  });

  it('connects to a remote DevTools WebSocket URL', async () => {
    const { port, path } = await readDevToolsActivePort(chromium.userDataDir);
    const daemon = new FakeDaemon();
    const driver = await startCdpDriver(
      { mode: 'remote', wsUrl: `ws://127.0.0.1:${port}${path}`, name: 'farm' },
      daemon.driverEnd,
    );
    try {
      expect(daemon.messages[0]).toMatchObject({ type: 'hello', client: { kind: 'cdp', name: 'farm' } });
      const tab = await daemon.ok<{ tabId: number; title: string }>('tab.open', {
        url: server.url('/list.html'),
      });
      expect(tab.title).toBe('List');
      const links = await daemon.ok<{ total: number }>('links', { limit: 3 }, { tabId: tab.tabId });
      expect(links.total).toBeGreaterThan(300);
    } finally {
      await driver.close();
    }
    expect(chromium.process.pid !== undefined && isAlive(chromium.process.pid)).toBe(true);
  });

  it('fails to start with a clear message when nothing listens on the port', async () => {
    const daemon = new FakeDaemon();
    await expect(
      startCdpDriver({ mode: 'attach', port: 1, connectTimeoutMs: 2_000 }, daemon.driverEnd),
    ).rejects.toThrow(/no DevTools endpoint/);
    expect(daemon.messages.some((m) => m.type === 'hello')).toBe(false);
  });
});
