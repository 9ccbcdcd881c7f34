/**
 * The Terminal of the real side panel survives the panel closing and opening again: the shell the
 * user came back for is the same one, whichever view the panel opens on — the panel reattaches its
 * tab's terminal when it opens, so the host's detach window (here 2 s, BPROXY_TERMINAL_DETACH_MS) does
 * not end it — and the panel opens again on the view last chosen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevtoolsTarget } from '../kit/devtools-target';
import { launchHeaded, type HeadedMachine } from '../kit/headed';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { until } from '../kit/wait';

const DETACH_MS = 2_000;
let machine: HeadedMachine;
let pages: FixtureServer;

beforeAll(async () => {
  pages = await serveFixtures();
  machine = await launchHeaded('bproxy-headed-term-', {
    BPROXY_TERMINAL_COMMAND: '/bin/sh',
    BPROXY_TERMINAL_DETACH_MS: String(DETACH_MS),
  });
  await machine.connected();
}, 120_000);

afterAll(async () => {
  await machine?.close();
  await pages?.close();
}, 60_000);

/** What the panel's terminal shows (xterm's DOM renderer: one element per row). */
const screen = (panel: DevtoolsTarget): Promise<string> =>
  panel.evaluate<string>(
    "[...document.querySelectorAll('#terminal-screen .xterm-rows > div')].map((r) => (r.textContent ?? '').trimEnd()).join('\\n')",
  );

async function shows(panel: DevtoolsTarget, pattern: RegExp, what: string): Promise<string> {
  return until(what, async () => pattern.exec(await screen(panel))?.[1], 20_000);
}

const selected = (panel: DevtoolsTarget): Promise<string> =>
  panel.evaluate<string>("document.querySelector('[role=tab][aria-selected=true]')?.id ?? ''");

describe('the Terminal of the real side panel', () => {
  it('keeps the same shell across a close and reopen, on whichever view the panel reopens', async () => {
    const page = await machine.browser.context.newPage();
    await page.goto(pages.url('ext-form.html'));
    await page.bringToFront();

    let { target: panel } = await machine.openSidePanel();
    await panel.click('#tab-terminal');
    await panel.click('#terminal-screen');
    await panel.type('echo "mark=$((6*7))-$$"\n');
    const shell = await shows(panel, /^(?:# )?mark=42-(\d+)$/m, 'the shell’s first answer');

    // Closed and reopened on the Terminal view (the view last chosen): the output is replayed.
    panel.close();
    await machine.closeSidePanel();
    ({ target: panel } = await machine.openSidePanel());
    expect(await selected(panel)).toBe('tab-terminal');
    expect(await shows(panel, /^(?:# )?mark=42-(\d+)$/m, 'the replay')).toBe(shell);

    // Closed on Activity and reopened there: the terminal is attached all the same, and outlives the
    // host's detach window while the panel shows another view.
    await panel.click('#tab-activity');
    panel.close();
    await machine.closeSidePanel();
    ({ target: panel } = await machine.openSidePanel());
    expect(await selected(panel)).toBe('tab-activity');
    const reopened = Date.now();
    // Nothing to wait for but the time itself: the detach window passing with the panel open.
    await until('the detach window to pass', () => Date.now() - reopened > DETACH_MS * 2, DETACH_MS * 3);
    await panel.click('#tab-terminal');
    await panel.click('#terminal-screen');
    await panel.type('echo "same=$$"\n');
    expect(await shows(panel, /^(?:# )?same=(\d+)$/m, 'the same shell')).toBe(shell);
    panel.close();
    await machine.closeSidePanel();
    await page.close();
  });
});
