/**
 * The whole product with the extension as the browser: the real daemon started by `bproxy service
 * start`, real headless Chromium with the built extension paired through its popup, and the real CLI
 * driving the fixture pages. Covers the agent's everyday commands, stale handles, the human hand-off,
 * a service worker stopped mid-request, and a daemon restart that needs no new pairing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cli, type StartOutput } from './extension-cli-harness';
import {
  launchWithExtension,
  serveFixtures,
  until,
  type ExtensionBrowser,
  type FixtureServer,
} from './extension-harness';

let browser: ExtensionBrowser;
let pages: FixtureServer;
let cli: Cli;
let started: StartOutput;
/** The name the daemon gave the extension's client (for --browser). */
let browserName = '';

interface Status {
  clients: { name: string; kind: string; connected: boolean }[];
}

async function extensionClient(): Promise<{ name: string; connected: boolean } | undefined> {
  const status = await cli.ok<Status>(['debug', 'status']);
  return status.clients.find((c) => c.kind === 'extension');
}

async function pairThroughPopup(code: string, port: number): Promise<string> {
  const popup = await browser.context.newPage();
  try {
    await popup.goto(`chrome-extension://${browser.extensionId}/popup.html`);
    await popup.fill('#port', String(port));
    await popup.fill('#code', code);
    await popup.click('#pair');
    return await until('a pairing outcome', async () => {
      const text = (await popup.textContent('#pair-message')) ?? '';
      return text !== '' && text !== 'Pairing…' ? text : undefined;
    });
  } finally {
    await popup.close();
  }
}

/** A fresh fast-paced session with one tab open on `page`. */
async function sessionOn(page: string): Promise<string> {
  const created = await cli.ok<{ session: string }>(['session', 'create', '--pacing', 'fast']);
  await cli.ok(['tab', 'open', '-s', created.session, pages.url(page), '--browser', browserName]);
  return created.session;
}

beforeAll(async () => {
  pages = await serveFixtures();
  cli = new Cli();
  started = await cli.start();
  browser = await launchWithExtension();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await cli?.dispose();
  await pages?.close();
});

describe('extension driven through the real daemon and CLI', () => {
  it('pairs with the code printed by service start and connects', async () => {
    expect(started.pairingCode).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    const message = await pairThroughPopup(started.pairingCode, started.port);
    expect(message).toMatch(/Paired/);
    const client = await until('the extension client to connect', async () => {
      const c = await extensionClient();
      return c?.connected ? c : undefined;
    });
    browserName = client.name;
  }, 30_000);

  it('refuses the same code a second time with a clear message', async () => {
    const message = await pairThroughPopup(started.pairingCode, started.port);
    expect(message).toMatch(/already used|does not know/);
  }, 30_000);

  it('reads a page and acts on it through handles', async () => {
    const s = await sessionOn('ext-form.html');
    const text = await cli.ok<{ text: string }>(['text', '-s', s]);
    expect(text.text).toContain('Order form');

    const links = await cli.ok<{ links: { handle: string; text: string }[] }>(['links', '-s', s]);
    expect(links.links.find((l) => l.text === 'Next page')?.handle).toMatch(/^ln\d+$/);

    const elements = await cli.ok<{ elements: { handle: string; name: string; tag: string }[] }>([
      'elements',
      '-s',
      s,
    ]);
    const name = elements.elements.find((e) => e.tag === 'input' && /name/i.test(e.name));
    expect(name?.handle).toMatch(/^el\d+$/);
    await cli.ok(['fill', '-s', s, String(name?.handle), 'Ada']);
    const inspected = await cli.ok<{ value?: string; tag: string }>([
      'inspect',
      '-s',
      s,
      String(name?.handle),
    ]);
    expect(inspected).toMatchObject({ tag: 'input', value: 'Ada' });

    await cli.ok(['type', '-s', s, ' Lovelace', '--into', String(name?.handle)]);
    await cli.ok(['select', '-s', s, '--selector', '#size', 'm']);
    await cli.ok(['hover', '-s', s, '--selector', '#hover-target']);
    expect((await cli.ok<{ text: string }>(['text', '-s', s])).text).toContain('hovered');

    const scrolled = await cli.ok<{ atBottom: boolean }>(['scroll', '-s', s, '--to', 'bottom']);
    expect(scrolled.atBottom).toBe(true);
    const snapshot = await cli.ok<{ snapshot: string }>(['snapshot', '-s', s]);
    expect(snapshot.snapshot).toContain('Order form');

    const out = join(cli.home, 'shot.png');
    await cli.ok(['screenshot', '-s', s, '--out', out]);
    expect(existsSync(out) && readFileSync(out).subarray(1, 4).toString()).toBe('PNG');

    // The snapshot minted fresh handles and replaced the old ones: address the field by selector now.
    const pressed = await cli.ok<{ navigated: boolean; url: string }>([
      'press',
      '-s',
      s,
      'Enter',
      '--selector',
      '#name',
    ]);
    expect(pressed.navigated).toBe(true);
    expect(pressed.url).toContain('size=m');
    await cli.ok(['session', 'close', '-s', s]);
  }, 60_000);

  it('clicks a link handle, then refuses the old handles as stale', async () => {
    const s = await sessionOn('ext-form.html');
    const links = await cli.ok<{ links: { handle: string; text: string }[] }>(['links', '-s', s]);
    const next = links.links.find((l) => l.text === 'Next page');
    const clicked = await cli.ok<{ navigated: boolean; title: string }>([
      'click',
      '-s',
      s,
      String(next?.handle),
    ]);
    expect(clicked).toMatchObject({ navigated: true, title: 'Extension done' });
    expect(await cli.failCode(['click', '-s', s, String(next?.handle)])).toBe('ELEMENT_HANDLE_STALE');
    await cli.ok(['session', 'close', '-s', s]);
  }, 45_000);

  it('navigates through history and manages tabs', async () => {
    const s = await sessionOn('ext-form.html');
    expect(await cli.ok(['navigate', '-s', s, pages.url('ext-done.html')])).toMatchObject({
      title: 'Extension done',
    });
    expect(await cli.ok(['back', '-s', s])).toMatchObject({ title: 'Extension form' });
    expect(await cli.ok(['forward', '-s', s])).toMatchObject({ title: 'Extension done' });
    expect(await cli.ok(['reload', '-s', s])).toMatchObject({ title: 'Extension done' });
    expect(await cli.ok(['tab', 'pin', '-s', s])).toMatchObject({ pinned: true });
    expect(await cli.ok(['tab', 'unpin', '-s', s])).toMatchObject({ pinned: false });
    const listed = await cli.ok<{ tabs: { tab: string }[] }>(['tab', 'list', '-s', s]);
    expect(listed.tabs).toHaveLength(1);
    expect(await cli.ok(['tab', 'close', '-s', s])).toMatchObject({ closed: true });
    const closed = await cli.ok<{ closedTabs: string[] }>(['session', 'close', '-s', s]);
    expect(closed.closedTabs).toEqual([]);
  }, 45_000);

  it('pauses the session on a CAPTCHA page until it is resumed', async () => {
    const s = await sessionOn('ext-form.html');
    expect(await cli.failCode(['navigate', '-s', s, pages.url('ext-captcha.html')])).toBe('HUMAN_REQUIRED');
    expect(await cli.failCode(['text', '-s', s])).toBe('HUMAN_REQUIRED');
    const resumed = await cli.ok<{ paused: boolean }>(['session', 'resume', '-s', s]);
    expect(resumed.paused).toBe(false);
    expect(await cli.ok(['navigate', '-s', s, pages.url('ext-done.html')])).toMatchObject({
      title: 'Extension done',
    });
    await cli.ok(['session', 'close', '-s', s]);
  }, 45_000);

  it('answers dialogs through the dialog command', async () => {
    const s = await sessionOn('ext-dialogs.html');
    const clicked = await cli.ok<{ dialog?: { type: string } }>(['click', '-s', s, '--selector', '#confirm']);
    expect(clicked.dialog?.type).toBe('confirm');
    expect(await cli.ok(['dialog', '-s', s, 'accept'])).toMatchObject({ type: 'confirm', accepted: true });
    expect((await cli.ok<{ text: string }>(['text', '-s', s])).text).toContain('confirm: true');
    await cli.ok(['session', 'close', '-s', s]);
  }, 45_000);

  it('clicks exactly once when the service worker is stopped mid-request', async () => {
    const s = await sessionOn('ext-counter.html');
    const before = pages.hits('/count/slow-start');
    const click = cli.run(['click', '-s', s, '--selector', '#slow']);
    await until('the slow click to start', () => pages.hits('/count/slow-start') === before + 1, 20_000);
    await browser.stopServiceWorkers();
    const poke = await browser.context.newPage();
    await poke.goto(pages.url('ext-done.html'));
    await poke.close();
    const result = await click;
    expect(result.code, result.stderr).toBe(0);
    expect((await cli.ok<{ text: string }>(['text', '-s', s])).text).toContain('Clicks: 1');
    await cli.ok(['session', 'close', '-s', s]);
  }, 60_000);

  it('logged no errors in the service worker', () => {
    expect(browser.workerErrors).toEqual([]);
  });

  it('reconnects with its stored token after the daemon restarts', async () => {
    await cli.stop();
    await until('the extension to notice', async () => {
      const worker = await browser.worker();
      const status = await worker.evaluate(
        () => (globalThis as { bproxyStatus?: () => { state: string } }).bproxyStatus?.().state,
      );
      return status !== 'connected';
    });
    cli.usePort(started.port);
    const again = await cli.start();
    expect(again.port).toBe(started.port);
    await until(
      'the extension to reconnect without pairing',
      async () => (await extensionClient())?.connected === true,
      20_000,
    );
    const s = await sessionOn('ext-done.html');
    expect((await cli.ok<{ text: string }>(['text', '-s', s])).text).toContain('Done');
  }, 60_000);
});
