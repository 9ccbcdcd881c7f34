/**
 * The daemon down, as a person meets it in the real side panel and popup: the panel says bproxy is
 * not running and offers **Start bproxy** (the native host starts it), which brings it back; Share,
 * with the daemon down, starts it as a chat message does instead of refusing; and the popup offers
 * Start bproxy too, not "pair again" (the pairing holds: it reconnects by itself).
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
  machine = await launchHeaded('bproxy-headed-down-');
  await machine.connected();
}, 120_000);

afterAll(async () => {
  await machine?.close();
  await pages?.close();
}, 60_000);

const text = (panel: DevtoolsTarget, id: string): Promise<string> =>
  panel.evaluate<string>(`document.getElementById(${JSON.stringify(id)})?.textContent ?? ''`);
const visible = (panel: DevtoolsTarget, id: string): Promise<boolean> =>
  panel.evaluate<boolean>(`!(document.getElementById(${JSON.stringify(id)})?.hidden ?? true)`);

describe('the real side panel with the daemon down', () => {
  it('offers Start bproxy, which brings the daemon back, and Share starts it too', async () => {
    const page = await machine.browser.context.newPage();
    await page.goto(pages.url('ext-form.html'));
    await page.bringToFront();
    const { target: panel } = await machine.openSidePanel();
    await until('connected', async () => (await text(panel, 'status')) === 'connected');
    expect(await visible(panel, 'start-daemon')).toBe(false);

    await machine.cli.ok(['service', 'stop']);
    await until('the panel to say bproxy is down', async () =>
      /bproxy is not running/.test(await text(panel, 'status')),
    );
    await until('Start bproxy to be offered', () => visible(panel, 'start-daemon'));
    await panel.click('#start-daemon');
    await until('connected again', async () => (await text(panel, 'status')) === 'connected', 30_000);
    expect(await visible(panel, 'start-daemon')).toBe(false);

    await machine.cli.ok(['service', 'stop']);
    await until('Start bproxy to be offered again', () => visible(panel, 'start-daemon'));
    await panel.click('#share');
    const session = await until(
      'the tab to be shared',
      async () => (await text(panel, 'session-id')) || undefined,
      30_000,
    );
    expect(session).toMatch(/^[a-z2-7]{26}$/);
    await until('the panel to say connected', async () => (await text(panel, 'status')) === 'connected');
    panel.close();
    await page.close();
  });

  it('the popup offers Start bproxy, not a new pairing, and hides the pairing the host keeps', async () => {
    await until('connected', () => machine.connected().then(() => true));
    await machine.cli.ok(['service', 'stop']);
    const popup = await machine.openPopup();
    try {
      await until('the popup to offer Start bproxy', () => visible(popup, 'start-daemon'), 20_000);
      expect(await text(popup, 'problem')).toBe('bproxy is not running.');
      expect(await visible(popup, 'pair-form')).toBe(false);
      expect(await visible(popup, 'unpair')).toBe(false);
      await popup.click('#start-daemon');
      await until('connected', async () => /^connected/.test(await text(popup, 'connection')), 30_000);
      await until('the offer to go', async () => !(await visible(popup, 'start-daemon')));
    } finally {
      popup.close();
    }
  });
});
