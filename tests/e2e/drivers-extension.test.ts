/**
 * The whole product with the MV3 extension as the browser: the real daemon started by `bproxy
 * service start --browser none`, real headless Chromium with the built extension paired through its
 * popup, the shared action suite through the real CLI, then what only the extension has — pairing
 * codes, a service worker stopped mid-request, a daemon restart that needs no new pairing, and the
 * debugger it sends trusted input through: shared with a DevTools-like client, refused by a page that
 * holds another extension's frame (then synthetic input, and the answer says so).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  FRAME_EXTENSION_PAGE,
  pairThroughPopup,
  launchWithExtension,
  type ExtensionBrowser,
} from '../kit/extension';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { until } from '../kit/wait';
import { defineActionSuite, type DriverUnderTest, type SuiteEnv } from '../kit/suites/actions';
import { Agent } from '../kit/agent';
import { expectNoChromiumLeft } from '../kit/chromium';
import { Cli, type StartOutput } from '../kit/cli';

interface Status {
  clients: { name: string; kind: string; connected: boolean }[];
}

let pages: FixtureServer | undefined;
let cli: Cli | undefined;
let browser: ExtensionBrowser | undefined;
let started: StartOutput | undefined;
let firstPairing = '';
let starting: Promise<SuiteEnv> | undefined;

async function extensionClient(c: Cli): Promise<{ name: string; connected: boolean } | undefined> {
  const status = await c.ok<Status>(['debug', 'status']);
  return status.clients.find((client) => client.kind === 'extension');
}

/** Daemon without a browser of its own, the extension paired with the code `service start` printed. */
async function startExtension(): Promise<SuiteEnv> {
  pages = await serveFixtures();
  const c = new Cli('bproxy-e2e-ext-home-');
  cli = c;
  started = await c.start(['--browser', 'none']);
  browser = await launchWithExtension({ frameExtension: true });
  firstPairing = await pairThroughPopup(browser, started.pairingCode, started.port);
  const client = await until('the extension client to connect', async () => {
    const found = await extensionClient(c);
    return found?.connected ? found : undefined;
  });
  return { cli: c, pages, browser: client.name };
}

const extension: DriverUnderTest = {
  label: 'the extension driver',
  start: () => (starting ??= startExtension()),
};

afterAll(async () => {
  const dirs = [browser?.userDataDir, cli?.home].filter((d): d is string => d !== undefined);
  await browser?.close();
  await cli?.dispose();
  await pages?.close();
  await expectNoChromiumLeft(dirs);
}, 60_000);

defineActionSuite(extension);

describe('what only the extension driver has', () => {
  const env = async (): Promise<{ agent: Agent; c: Cli; b: ExtensionBrowser; p: FixtureServer }> => {
    const e = await extension.start();
    if (!browser || !started) throw new Error('the extension did not start');
    return { agent: new Agent(e), c: e.cli, b: browser, p: e.pages };
  };

  it('paired with the code printed by service start and connected without a browser of its own', async () => {
    const { c } = await env();
    expect(started?.pairingCode).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    expect(firstPairing).toMatch(/Paired/);
    const status = await c.ok<Status>(['debug', 'status']);
    expect(status.clients.map((client) => client.kind)).toEqual(['extension']);
  }, 60_000);

  it('refuses the same pairing code a second time with a clear message', async () => {
    const { b } = await env();
    const message = await pairThroughPopup(b, String(started?.pairingCode), Number(started?.port));
    expect(message).toMatch(/already used|does not know/);
  }, 30_000);

  it('clicks exactly once when the service worker is stopped mid-request', async () => {
    const { agent, c, b, p } = await env();
    const s = await agent.session('ext-counter.html');
    const before = p.hits('/count/slow-start');
    const click = c.run(['click', '-s', s, '--selector', '#slow']);
    await until('the slow click to start', () => p.hits('/count/slow-start') === before + 1, 20_000);
    await b.stopServiceWorkers();
    const poke = await b.context.newPage();
    await poke.goto(p.url('ext-done.html'));
    await poke.close();
    const result = await click;
    expect(result.code, result.stderr).toBe(0);
    expect(await agent.text(s)).toContain('Clicks: 1');
    await agent.close(s);
  }, 60_000);

  it('shares a tab the user opened: the popup gives the session, the CLI drives it, closing releases it', async () => {
    const { c, b, p } = await env();
    const page = await b.context.newPage();
    await page.goto(p.url('ext-form.html'));
    const worker = await b.worker();
    const tabId = await worker.evaluate(async (url) => {
      const chromeApi = (
        globalThis as unknown as { chrome: { tabs: { query(q: object): Promise<{ id?: number }[]> } } }
      ).chrome;
      const [tab] = await chromeApi.tabs.query({ url });
      return tab?.id ?? null;
    }, p.url('ext-form.html'));
    expect(tabId).not.toBeNull();
    const popup = await b.context.newPage();
    await popup.goto(`chrome-extension://${b.extensionId}/popup.html?tab=${String(tabId)}`);
    await popup.click('#share-button');
    const line = await until('the popup to show the line', async () => {
      const text = (await popup.textContent('#shared-line')) ?? '';
      return text === '' ? undefined : text;
    });
    const session = /-s (\S+) snapshot$/.exec(line)?.[1] ?? '';
    // No native host here: nothing told the popup where the CLI is, so it says `bproxy`.
    expect(line).toBe(`bproxy -s ${session} snapshot`);
    await popup.click('#copy-line');
    await until('the popup to say it copied the line', async () =>
      (await popup.textContent('#share-message')) === 'Copied.' ? true : undefined,
    );
    await popup.close();

    const text = await c.ok<{ text: string }>(['text', '-s', session]);
    expect(text.text).toContain('Name');
    // The id is the capability of the agent the user gives it to: no other agent can learn it.
    expect(session).toMatch(/^[a-z2-7]{26}$/);
    for (const view of [
      ['session', 'list'],
      ['debug', 'status'],
      ['debug', 'last'],
      ['debug', 'log'],
    ])
      expect(JSON.stringify(await c.ok(view)), view.join(' ')).not.toContain(session);
    const closed = await c.ok<{ closedTabs: string[]; releasedTabs: string[] }>([
      'session',
      'close',
      '-s',
      session,
    ]);
    expect(closed).toMatchObject({ closedTabs: [], releasedTabs: ['t1'] });
    expect(page.isClosed()).toBe(false);
    expect(await page.title()).toBeDefined();
    await page.close();
  }, 60_000);

  it('cannot run a script in a file:// page even when one is open, while a web page takes it', async () => {
    const { b, p } = await env();
    const dir = mkdtempSync(join(tmpdir(), 'bproxy-e2e-file-'));
    try {
      writeFileSync(join(dir, 'secret.html'), '<title>Secret</title><p>local secret 91c2</p>');
      const file = pathToFileURL(join(dir, 'secret.html')).href;
      // Opened by the user (as if a navigation had slipped through), not through bproxy.
      const local = await b.context.newPage();
      await local.goto(file);
      const web = await b.context.newPage();
      await web.goto(p.url('counter.html'));
      const worker = await b.worker();
      const read = (url: string) =>
        worker.evaluate(async (target) => {
          const api = (
            globalThis as unknown as {
              chrome: {
                tabs: { query(q: object): Promise<{ id?: number; url?: string }[]> };
                scripting: {
                  executeScript(i: {
                    target: { tabId: number };
                    func: () => string;
                  }): Promise<{ result?: unknown }[]>;
                };
              };
            }
          ).chrome;
          const tabs = await api.tabs.query({});
          const tab = tabs.find((t) => t.url === target);
          if (tab?.id === undefined) return { error: `no tab at ${target}` };
          try {
            const [frame] = await api.scripting.executeScript({
              target: { tabId: tab.id },
              func: () => document.body.innerText,
            });
            return { text: String(frame?.result) };
          } catch (error) {
            return { error: String(error) };
          }
        }, url);
      expect(await read(p.url('counter.html'))).toMatchObject({ text: expect.stringContaining('Count: 0') });
      const refused = await read(file);
      expect(refused).toMatchObject({ error: expect.stringMatching(/Cannot access|permission/i) });
      expect(JSON.stringify(refused)).not.toContain('local secret 91c2');
      await local.close();
      await web.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('keeps input trusted with a DevTools-like client attached to the same tab: Chrome lets both debug it', async () => {
    const { agent, c, b, p } = await env();
    const s = await agent.session('trusted.html');
    // Playwright learns of the tab, and of its URL, from events that may come after the answer.
    const page = await until('the session tab in the browser', () =>
      b.context.pages().findLast((x) => x.url() === p.url('trusted.html')),
    );
    const devtools = await b.context.newCDPSession(page);
    try {
      await devtools.send('Runtime.enable');
      await devtools.send('Page.enable');
      const clicked = await c.ok<{ input?: string }>(['click', '-s', s, await agent.element(s, 'Count')]);
      expect(clicked.input).toBeUndefined();
      expect(await agent.text(s)).toContain('clicks: trusted 1, untrusted 0');
    } finally {
      await devtools.detach().catch(() => undefined);
    }
    await agent.close(s);
  }, 60_000);

  it("falls back to synthetic input on a page holding another extension's frame, and says so", async () => {
    const { agent, c } = await env();
    // Chrome refuses an extension's debugger on a page that frames another extension's page (as
    // password managers and translators do), and takes it off a tab that gains such a frame.
    const s = await agent.session(`trusted.html?frame=${encodeURIComponent(FRAME_EXTENSION_PAGE)}`);
    const clicked = await c.ok<{ input?: string }>(['click', '-s', s, await agent.element(s, 'Count')]);
    expect(clicked.input).toBe('synthetic');
    expect(await agent.text(s)).toContain('clicks: trusted 0, untrusted 1');
    // What only a real gesture may do is refused to script events: the popup is blocked.
    const popup = await c.ok<{ input?: string; openedTabs?: unknown }>([
      'click',
      '-s',
      s,
      await agent.element(s, 'Open popup'),
    ]);
    expect(popup).toMatchObject({ input: 'synthetic' });
    expect(popup.openedTabs).toBeUndefined();
    expect(await agent.text(s)).toContain('popup blocked');
    const log = await c.ok<{ entries: { event: string; reason?: string }[] }>(['debug', 'log', '-s', s]);
    expect(log.entries).toContainEqual(
      expect.objectContaining({
        event: 'input_synthetic',
        reason: expect.stringMatching(/chrome-extension:\/\/ URL of different extension|not attached/),
      }),
    );
    await agent.close(s);
  }, 60_000);

  it('logged no errors in the service worker', async () => {
    const { b } = await env();
    expect(b.workerErrors).toEqual([]);
  });

  it('reconnects with its stored token after the daemon restarts', async () => {
    const { agent, c, b } = await env();
    const port = Number(started?.port);
    await c.stop();
    await until('the extension to notice', async () => {
      const worker = await b.worker();
      const status = await worker.evaluate(
        () => (globalThis as { bproxyStatus?: () => { state: string } }).bproxyStatus?.().state,
      );
      return status !== 'connected';
    });
    c.usePort(port);
    const again = await c.start(['--browser', 'none']);
    expect(again.port).toBe(port);
    await until(
      'the extension to reconnect without pairing',
      async () => (await extensionClient(c))?.connected,
      20_000,
    );
    const s = await agent.session('ext-done.html');
    expect(await agent.text(s)).toContain('Done');
    await agent.close(s);
  }, 60_000);
});
