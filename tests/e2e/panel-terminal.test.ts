/**
 * The Terminal view through real Chromium, the real extension and the real native host as a user
 * installs it (/bin/sh as the terminal's program): the panel page, opened as a tab for one of the
 * user's tabs, starts nothing until a key; typing runs the shell on a PTY the host owns, with
 * BPROXY_SESSION naming the session the first key shared the tab into; `bproxy text` run there drives
 * that tab; closing the panel detaches and opening it again replays what was printed; after the
 * program ends, a key starts a new one. A web page has no way to the host at all.
 */
import type { Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { until } from '../kit/wait';
import { launchWithNativeHost, type NativeMachine } from '../kit/native-host';
import { PANEL_SIZE } from '../kit/screenshots';

let machine: NativeMachine;
let pages: FixtureServer;

beforeAll(async () => {
  pages = await serveFixtures();
  machine = await launchWithNativeHost('bproxy-e2e-term-', { BPROXY_TERMINAL_COMMAND: '/bin/sh' });
  await machine.connected();
}, 90_000);

afterAll(async () => {
  await machine?.close();
  await pages?.close();
}, 60_000);

async function tabIdOf(worker: Worker, url: string): Promise<number> {
  const id = await worker.evaluate(async (u) => {
    const api = (
      globalThis as unknown as { chrome: { tabs: { query(q: object): Promise<{ id?: number }[]> } } }
    ).chrome;
    const [tab] = await api.tabs.query({ url: u });
    return tab?.id ?? null;
  }, url);
  if (id === null) throw new Error(`no tab shows ${url}`);
  return id;
}

/** What the terminal shows (xterm's DOM renderer: one element per row). */
async function screen(panel: Page): Promise<string> {
  return panel.$$eval('#terminal-screen .xterm-rows > div', (rows) =>
    rows.map((row) => (row.textContent ?? '').trimEnd()).join('\n'),
  );
}

async function shows(panel: Page, pattern: RegExp, what: string, ms = 20_000): Promise<string> {
  return until(
    what,
    async () => {
      const match = pattern.exec(await screen(panel));
      return match?.[1] ?? undefined;
    },
    ms,
  );
}

async function openPanel(tabId: number): Promise<Page> {
  const panel = await machine.browser.context.newPage();
  await panel.setViewportSize(PANEL_SIZE);
  await panel.goto(`chrome-extension://${machine.browser.extensionId}/panel.html?tab=${tabId}`);
  await panel.click('#tab-terminal');
  await panel.waitForSelector('#terminal-screen .xterm-rows', { timeout: 10_000 });
  return panel;
}

describe('the Terminal view', () => {
  it('runs a shell on the first key whose bproxy drives the tab, replays it when the panel opens again, and starts anew only on a key', async () => {
    const userPage = await machine.browser.context.newPage();
    await userPage.goto(pages.url('ext-form.html'));
    const worker = await machine.browser.worker();
    const tabId = await tabIdOf(worker, pages.url('ext-form.html'));
    const panel = await openPanel(tabId);
    expect(await panel.isVisible('#terminal-hint')).toBe(true);
    expect(await panel.isVisible('#tab-free')).toBe(true);

    await panel.click('#terminal-screen');
    await panel.keyboard.type('echo "round-$((40+2))"\n');
    // Keys typed while the shell starts are echoed by the PTY before the shell prints its first prompt,
    // which then lands in front of the first output line: type-ahead, as in any terminal.
    expect(await shows(panel, /^(?:# )?(round-42)$/m, 'the echo round trip')).toBe('round-42');
    // The first key shared the tab: the panel shows its session, and the shell has it.
    const session = await until('the shared session', async () => {
      const text = (await panel.textContent('#session-id')) ?? '';
      return text === '' ? undefined : text;
    });
    await panel.keyboard.type('echo "s=$BPROXY_SESSION"\n');
    expect(await shows(panel, /^s=(\S+)$/m, 'BPROXY_SESSION')).toBe(session);

    // `bproxy` is the CLI of this installation (the host puts it first on PATH), BPROXY_SESSION its session.
    await panel.keyboard.type(
      'bproxy session bind --pacing fast >/dev/null; bproxy text >page.json; echo "cli=$?"; head -c 300 page.json; echo\n',
    );
    expect(await shows(panel, /^cli=(\d+)$/m, 'bproxy to finish', 30_000)).toBe('0');
    await shows(panel, /(Order form)/, 'the tab’s text, read by the CLI in the terminal');

    await panel.keyboard.type('echo "mark=$((6*7))-$$"\n');
    const shell = await shows(panel, /^mark=42-(\d+)$/m, 'the mark');
    await panel.close();
    const again = await openPanel(tabId);
    expect(await shows(again, /^mark=42-(\d+)$/m, 'the replayed output')).toBe(shell);
    await again.click('#terminal-screen');
    await again.keyboard.type('echo "same=$$"\n');
    expect(await shows(again, /^same=(\d+)$/m, 'the same shell')).toBe(shell);

    // The program ends: the view says so, and only a key starts a new one.
    await again.keyboard.type('exit\n');
    await shows(again, /(exited with code 0 — press any key)/, 'the end of the shell');
    await again.keyboard.press('Enter');
    await again.keyboard.type('echo "new=$$"\n');
    const fresh = await shows(again, /^(?:# )?new=(\d+)$/m, 'a new shell');
    expect(fresh).not.toBe(shell);
    await again.close();
    await userPage.close();
  }, 120_000);

  it('is out of a web page’s reach: the page has no native messaging API and no way to message the extension', async () => {
    const page = await machine.browser.context.newPage();
    await page.goto(pages.url('ext-form.html'));
    const reach = await page.evaluate((extensionId) => {
      type Runtime = Record<string, unknown> & { connect?: (id: string) => unknown };
      const runtime = (globalThis as unknown as { chrome?: { runtime?: Runtime } }).chrome?.runtime;
      // Chromium gives a web page chrome.runtime only when an extension lists it under
      // externally_connectable; ours lists nothing, so there is nothing to connect or send with.
      let connected = false;
      try {
        connected = typeof runtime?.connect === 'function' && runtime.connect(extensionId) !== undefined;
      } catch {
        connected = false;
      }
      return {
        runtime: typeof runtime,
        connectNative: typeof runtime?.connectNative,
        sendNativeMessage: typeof runtime?.sendNativeMessage,
        sendMessage: typeof runtime?.sendMessage,
        connected,
      };
    }, machine.browser.extensionId);
    expect(reach).toEqual({
      runtime: 'undefined',
      connectNative: 'undefined',
      sendNativeMessage: 'undefined',
      sendMessage: 'undefined',
      connected: false,
    });
    await page.close();
  }, 30_000);
});
