/**
 * The real side panel, as a person opens it: a headed Chromium on a virtual screen, the built
 * extension paired by the native host, the toolbar popup opened and its **Open side panel** button
 * clicked with a real mouse event — the panel that opens is the browser's own side panel (not the
 * panel page loaded in a tab), found in `/json/list`. Share pressed the moment the panel's page is
 * parsed, before the browser told the panel which tab is in front, shares that tab.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchHeaded, type HeadedMachine } from '../kit/headed';
import { listTargets } from '../kit/devtools-target';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { until } from '../kit/wait';

let machine: HeadedMachine;
let pages: FixtureServer;

beforeAll(async () => {
  pages = await serveFixtures();
  machine = await launchHeaded('bproxy-headed-open-');
  await machine.connected();
}, 120_000);

afterAll(async () => {
  await machine?.close();
  await pages?.close();
}, 60_000);

describe('the real side panel', () => {
  it('opens with one click on the popup’s Open side panel, connected, and closes', async () => {
    const { target, openedInMs } = await machine.openSidePanel();
    // A side panel is no tab: its page is not among the window's tabs, yet it serves the tab in front.
    const tabs = await machine.inWorker(async () => {
      const api = (
        globalThis as unknown as { chrome: { tabs: { query(q: object): Promise<{ url?: string }[]> } } }
      ).chrome;
      return (await api.tabs.query({})).map((t) => t.url ?? '');
    }, null);
    expect(tabs.some((u) => u.includes('/panel.html'))).toBe(false);
    expect(
      await target.evaluate<string>(
        "new Promise((r) => { const s = document.getElementById('status'); const t = () => s.textContent === 'connected' ? r(s.textContent) : setTimeout(t, 50); t(); })",
      ),
    ).toBe('connected');
    expect(openedInMs).toBeLessThan(10_000);
    target.close();
    await machine.closeSidePanel();
    const left = (await listTargets(machine.port)).filter((t) => t.url.includes('/panel.html'));
    expect(left).toEqual([]);
  });

  it('shares the tab in front when Share is pressed as the panel opens, before it knows that tab', async () => {
    const page = await machine.browser.context.newPage();
    await page.goto(pages.url('ext-form.html'));
    await page.bringToFront();
    const { target: panel } = await machine.openSidePanel();
    // Loaded again with Share pressed as soon as its page is parsed: the panel has asked the browser
    // which tab is in front (windows.getCurrent, then tabs.query) and cannot have its answer yet.
    await panel.send('Page.enable');
    await panel.send('Page.addScriptToEvaluateOnNewDocument', {
      source:
        "document.addEventListener('DOMContentLoaded', () => document.getElementById('share').click());",
    });
    await panel.send('Page.reload');
    const shared = await until(
      'the session',
      async () =>
        (await panel.evaluate<string>("document.getElementById('session-id')?.textContent ?? ''")) ||
        undefined,
    );
    const { tabs } = await machine.cli.ok<{ tabs: { url: string }[] }>(['tab', 'list', '-s', shared]);
    expect(tabs.map((t) => t.url)).toEqual([pages.url('ext-form.html')]);
    await machine.cli.ok(['session', 'close', '-s', shared]);
    panel.close();
    await page.close();
  });
});
