/**
 * The real side panel as a demanding person reads it: one "bproxy" title (Chrome's, above the panel —
 * not a second one inside), text of at least 13 px in every view, no internal word ("bound", t1, el4,
 * "paced") in what it shows, Close session away from Take over and confirmed before it acts, and no
 * scroll around the terminal: its rows used to end 1.8 px below their box, and the panel scrolled by
 * 2 px under it.
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
  machine = await launchHeaded('bproxy-headed-words-', { BPROXY_TERMINAL_COMMAND: '/bin/sh' });
  await machine.connected();
}, 120_000);

afterAll(async () => {
  await machine?.close();
  await pages?.close();
}, 60_000);

const text = (panel: DevtoolsTarget, id: string): Promise<string> =>
  panel.evaluate<string>(`document.getElementById(${JSON.stringify(id)})?.textContent ?? ''`);
const shown = (panel: DevtoolsTarget, id: string): Promise<boolean> =>
  panel.evaluate<boolean>(
    `(() => { const e = document.getElementById(${JSON.stringify(id)}); return !!e && !e.hidden && e.getClientRects().length > 0; })()`,
  );
/** Drawn text smaller than 13 px: the elements and their sizes. */
const smallText = (panel: DevtoolsTarget): Promise<string[]> =>
  panel.evaluate<string[]>(
    "[...document.querySelectorAll('body *')].filter((e) => e.getClientRects().length > 0 && !e.closest('#terminal-screen') && [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== '')).filter((e) => parseFloat(getComputedStyle(e).fontSize) < 13).map((e) => `${e.id || e.tagName} ${getComputedStyle(e).fontSize}`)",
  );
const INTERNAL = /\bbound\b|\bt\d+\b|\b(?:el|ln)\d+\b|\bpaced\b|shared by the user/;

describe('the real side panel’s words and layout', () => {
  it('has one title, 13 px text, plain words, a confirmed Close session and no scroll around the terminal', async () => {
    const page = await machine.browser.context.newPage();
    await page.goto(pages.url('ext-form.html'));
    await page.bringToFront();
    const { target: panel } = await machine.openSidePanel();
    await until('connected', async () => (await text(panel, 'status')) === 'connected');
    // Chrome's panel title says bproxy; the panel's own header does not say it again.
    expect(await panel.evaluate<string>("document.querySelector('header').innerText")).not.toMatch(/bproxy/i);

    await panel.click('#share');
    await until('shared', () => shown(panel, 'tab-session'));
    const session = await text(panel, 'session-id');
    await machine.cli.ok(['text', '-s', session]);
    await until('the read in the feed', async () => (await text(panel, 'feed')) !== '');
    expect(await text(panel, 'session-state')).toBe('active');
    expect(await text(panel, 'session-label')).toBe('shared by you');
    expect(await panel.evaluate<string>('document.body.innerText')).not.toMatch(INTERNAL);
    expect(await smallText(panel)).toEqual([]);

    // Close session stands apart from Take over, and asks first.
    const gap = await panel.evaluate<number>(
      "document.getElementById('close-session').getBoundingClientRect().left - document.getElementById('take-over').getBoundingClientRect().right",
    );
    expect(gap).toBeGreaterThanOrEqual(24);
    await panel.click('#close-session');
    await until('the question', () => shown(panel, 'close-confirm'));
    expect(await shown(panel, 'tab-session')).toBe(true);
    await panel.click('#close-confirm-no');
    expect(await shown(panel, 'close-confirm')).toBe(false);
    expect(await shown(panel, 'tab-session')).toBe(true);

    await panel.click('#tab-chat');
    expect(await smallText(panel)).toEqual([]);
    await panel.click('#tab-terminal');
    await panel.click('#terminal-screen');
    await panel.type('echo "ready=$((6*7))"\n');
    await until('the shell running', () =>
      panel.evaluate<boolean>(
        "(document.querySelector('#terminal-screen .xterm-rows')?.textContent ?? '').includes('ready=42')",
      ),
    );
    expect(await smallText(panel)).toEqual([]);
    // At the panel's own size and at any width the person drags it to, nothing scrolls (sideways or by
    // a few pixels under the terminal), and the terminal's rows end inside its box: x and y are the
    // scrollable overflow of the page, the body and the view area; "over" how far the drawn terminal
    // reaches past its box's right and bottom edges, in whole pixels.
    const overflow = async (): Promise<string> =>
      panel.evaluate<string>(
        "(() => { const els = [document.documentElement, document.body, document.querySelector('main')]; const box = document.getElementById('terminal-screen'); const style = getComputedStyle(box); const r = box.getBoundingClientRect(); const drawn = box.querySelector('.xterm-screen').getBoundingClientRect(); const past = (a, b) => Math.max(0, Math.ceil(a - b - 0.01)); return 'x=' + els.map((e) => e.scrollWidth - e.clientWidth).join(',') + ' y=' + els.map((e) => e.scrollHeight - e.clientHeight).join(',') + ' over=' + past(drawn.right, r.right - parseFloat(style.paddingRight)) + ',' + past(drawn.bottom, r.bottom - parseFloat(style.paddingBottom)); })()",
      );
    const frames = () =>
      panel.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
    const NONE = 'x=0,0,0 y=0,0,0 over=0,0';
    await frames();
    expect(`natural: ${await overflow()}`).toBe(`natural: ${NONE}`);
    const widths: string[] = [];
    for (const width of [320, 333, 347, 360, 381, 402, 437, 480]) {
      await panel.send('Emulation.setDeviceMetricsOverride', {
        width,
        height: 700,
        deviceScaleFactor: 1,
        mobile: false,
      });
      await until(`the panel at ${width} px`, () =>
        panel.evaluate<boolean>(`document.documentElement.clientWidth === ${width}`),
      );
      // xterm refits on its resize observer's next frame.
      await frames();
      widths.push(`${width}: ${await overflow()}`);
    }
    await panel.send('Emulation.clearDeviceMetricsOverride');
    expect(widths).toEqual(widths.map((w) => `${w.split(':')[0]}: ${NONE}`));

    await panel.click('#tab-activity');
    await panel.click('#close-session');
    await panel.click('#close-confirm-yes');
    await until('closed', () => shown(panel, 'tab-free'));
    panel.close();
    await page.close();
  });
});
