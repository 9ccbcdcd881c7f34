/**
 * The real side panel holds still and says only what is true: the view tabs (Activity, Chat,
 * Terminal) stay where they are through every change of state — a tab shared, taken over, resumed,
 * the daemon gone (a long status and Start bproxy), back, the session closed — so no click lands on
 * the wrong control; and a hand-off line belongs to its tab and lasts only while what it says holds
 * ("Session closed." goes when a new session holds the tab; another tab does not show it); a
 * take-over is said in words for the person, and the agent refused meanwhile is not told to resume.
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
  machine = await launchHeaded('bproxy-headed-layout-');
  await machine.connected();
}, 120_000);

afterAll(async () => {
  await machine?.close();
  await pages?.close();
}, 60_000);

const text = (panel: DevtoolsTarget, id: string): Promise<string> =>
  panel.evaluate<string>(`document.getElementById(${JSON.stringify(id)})?.textContent ?? ''`);
const shown = (panel: DevtoolsTarget, id: string): Promise<boolean> =>
  panel.evaluate<boolean>(`!(document.getElementById(${JSON.stringify(id)})?.hidden ?? true)`);
/** Where the view tabs are, to the pixel. */
const tabsAt = (panel: DevtoolsTarget): Promise<string> =>
  panel.evaluate<string>(
    "['tab-activity','tab-chat','tab-terminal'].map((id) => { const r = document.getElementById(id).getBoundingClientRect(); return [r.left, r.top, r.width, r.height].map(Math.round).join(','); }).join(' ')",
  );
const message = async (panel: DevtoolsTarget): Promise<string> =>
  (await shown(panel, 'handoff-message')) ? await text(panel, 'handoff-message') : '';

describe('the real side panel’s layout and hand-off lines', () => {
  it('keeps the view tabs in place through every state, and each line to its tab while it holds', async () => {
    const first = await machine.browser.context.newPage();
    await first.goto(pages.url('ext-form.html'));
    await first.bringToFront();
    const { target: panel } = await machine.openSidePanel();
    await until('connected', async () => (await text(panel, 'status')) === 'connected');
    const at = await tabsAt(panel);
    const positions: string[] = [];
    const still = async (what: string): Promise<void> => {
      positions.push(`${what}: ${await tabsAt(panel)}`);
    };

    await panel.click('#share');
    await until('shared', async () => (await message(panel)).startsWith('Shared'));
    await still('shared');
    await panel.click('#take-over');
    await until('taken over', async () => (await text(panel, 'session-state')) === 'paused');
    await still('taken over');
    // Words for the person in the panel; for the agent, a hint that does not send it to `session resume`.
    expect(await text(panel, 'pause-reason')).toBe(
      'You took over this tab: agents wait until you press Resume.',
    );
    const refused = (await machine.cli.fail(['text', '-s', await text(panel, 'session-id')])) as {
      code: string;
      hint?: string;
    };
    expect(refused.code).toBe('HUMAN_REQUIRED');
    expect(refused.hint).toMatch(/only they can resume it/);
    expect(refused.hint).not.toContain('session resume');
    await panel.click('#resume');
    await until('resumed', async () => (await message(panel)).startsWith('Resumed'));
    await still('resumed');
    await machine.cli.ok(['service', 'stop']);
    await until('Start bproxy', () => shown(panel, 'start-daemon'));
    await still('daemon down');
    await panel.click('#start-daemon');
    await until('connected again', async () => (await text(panel, 'status')) === 'connected', 30_000);
    await still('daemon back');
    // The restart ended the session: the tab is shared again by itself, then its session closed.
    await until('held again', () => shown(panel, 'tab-session'));
    await panel.click('#close-session');
    await panel.click('#close-confirm-yes');
    await until('closed', async () => (await message(panel)) === 'Session closed.');
    await still('closed');
    expect(positions).toEqual(positions.map((p) => `${p.split(':')[0]}: ${at}`));

    // Another tab does not show the first tab's line; coming back, it is there still.
    const second = await machine.browser.context.newPage();
    await second.goto(pages.url('ext-form.html?second'));
    await second.bringToFront();
    await until('the panel to follow the second tab', async () => (await message(panel)) === '');
    await first.bringToFront();
    await until('the first tab’s line back', async () => (await message(panel)) === 'Session closed.');

    // A new session holds the tab (shared from the popup): "Session closed." is no longer true.
    const popup = await machine.openPopup();
    await until('the popup’s Share', async () =>
      popup.evaluate<boolean>("!document.getElementById('share').hidden"),
    );
    await popup.click('#share-button');
    await until('the panel to show the new session', () => shown(panel, 'tab-session'));
    await until('the stale line to go', async () => (await message(panel)) === '');
    popup.close();
    panel.close();
    await second.close();
    await first.close();
  });
});
