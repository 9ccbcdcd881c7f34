/**
 * A daemon restart mid-session, in the real side panel: the tab the user shared lost its session
 * with the daemon, and the panel says so in words ("Session lost … Share again") instead of offering
 * a fresh share as if nothing had happened; the debugger leaves the tab no session holds any more
 * (Chrome's "started debugging this browser" bar goes with it); Share again gives a new session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevtoolsTarget } from '../kit/devtools-target';
import { launchHeaded, type HeadedMachine } from '../kit/headed';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { until } from '../kit/wait';

let machine: HeadedMachine;
let pages: FixtureServer;

beforeAll(async () => {
  pages = await serveFixtures();
  machine = await launchHeaded('bproxy-headed-restart-');
  await machine.connected();
}, 120_000);

afterAll(async () => {
  await machine?.close();
  await pages?.close();
}, 60_000);

const text = (panel: DevtoolsTarget, id: string): Promise<string> =>
  panel.evaluate<string>(`document.getElementById(${JSON.stringify(id)})?.textContent ?? ''`);

/**
 * Whether bproxy's own debugger is attached to the tab showing `url`: a command through it answers only
 * then (chrome.debugger.getTargets counts any client, Playwright's included).
 */
const debugged = (url: string): Promise<boolean> =>
  machine.inWorker(async (u) => {
    const api = (
      globalThis as unknown as {
        chrome: {
          tabs: { query(q: object): Promise<{ id?: number }[]> };
          debugger: { sendCommand(t: { tabId: number }, method: string, params: object): Promise<unknown> };
        };
      }
    ).chrome;
    const [tab] = await api.tabs.query({ url: u });
    if (tab?.id === undefined) return false;
    return api.debugger.sendCommand({ tabId: tab.id }, 'Runtime.evaluate', { expression: '1' }).then(
      () => true,
      () => false,
    );
  }, url);

describe('a daemon restart under the real side panel', () => {
  it('says the shared tab’s session was lost, lets the debugger go, and shares again', async () => {
    const url = pages.url('ext-form.html');
    const page = await machine.browser.context.newPage();
    await page.goto(url);
    await page.bringToFront();
    const { target: panel } = await machine.openSidePanel();
    await panel.click('#share');
    const first = await until('the session', async () => (await text(panel, 'session-id')) || undefined);
    const { elements } = await machine.cli.ok<{ elements: { handle: string; role: string }[] }>([
      'elements',
      '-s',
      first,
    ]);
    const field = elements.find((e) => e.role === 'textbox');
    if (field === undefined) throw new Error('no field on the form');
    await machine.cli.ok(['click', '-s', first, field.handle]);
    await until('the debugger on the shared tab', () => debugged(url));

    await machine.cli.ok(['service', 'stop']);
    await until('Start bproxy', () =>
      panel.evaluate<boolean>("!document.getElementById('start-daemon').hidden"),
    );
    await panel.click('#start-daemon');
    await until('connected again', async () => (await text(panel, 'status')) === 'connected', 30_000);
    await until('the panel to say the session was lost', async () =>
      /^Session lost/.test(await text(panel, 'tab-free-text')),
    );
    expect(await text(panel, 'share')).toBe('Share again');
    await until('the debugger to leave the tab', async () => !(await debugged(url)));

    await panel.click('#share');
    // The old id stays in the hidden session line until a new session fills it.
    const second = await until('a new session', async () => {
      const shown = await text(panel, 'session-id');
      return shown !== '' && shown !== first ? shown : undefined;
    });
    expect(second).not.toBe(first);
    await panel.click('#close-session');
    await panel.click('#close-confirm-yes');
    await until(
      'the tab to be free',
      async () => (await text(panel, 'tab-free-text')) === 'No agent is working in this tab.',
    );
    panel.close();
    await page.close();
  });
});
