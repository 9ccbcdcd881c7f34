/**
 * Chrome's "bproxy started debugging this browser" bar is explained once in the real side panel: the
 * first time a session holds the tab, a note says what the bar is and what its Cancel does; Got it
 * puts it away, and it stays away when the panel opens again.
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
  machine = await launchHeaded('bproxy-headed-note-');
  await machine.connected();
}, 120_000);

afterAll(async () => {
  await machine?.close();
  await pages?.close();
}, 60_000);

const shown = (panel: DevtoolsTarget, id: string): Promise<boolean> =>
  panel.evaluate<boolean>(`!(document.getElementById(${JSON.stringify(id)})?.hidden ?? true)`);

describe('the debugging bar, explained in the real side panel', () => {
  it('is explained once a session holds the tab, and Got it puts the note away for good', async () => {
    const page = await machine.browser.context.newPage();
    await page.goto(pages.url('ext-form.html'));
    await page.bringToFront();
    let { target: panel } = await machine.openSidePanel();
    expect(await shown(panel, 'debug-note')).toBe(false);
    await panel.click('#share');
    await until('the note', () => shown(panel, 'debug-note'));
    const note = await panel.evaluate<string>("document.getElementById('debug-note').textContent");
    expect(note).toContain('bproxy started debugging this browser');
    expect(note).toContain('Cancel');
    await panel.click('#debug-note-ok');
    await until('the note to go', async () => !(await shown(panel, 'debug-note')));

    panel.close();
    await machine.closeSidePanel();
    ({ target: panel } = await machine.openSidePanel());
    await until('the session in the reopened panel', () => shown(panel, 'tab-session'));
    expect(await shown(panel, 'debug-note')).toBe(false);
    panel.close();
    await page.close();
  });
});
