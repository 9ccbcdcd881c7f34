/**
 * The real popup, as a person who installed bproxy without putting `bproxy` on PATH meets it: Share
 * hands out a command line that runs as pasted — the exact text shown is run in a shell whose PATH has
 * no `bproxy` — the popup needs no scrollbar after Share, its text is at least 13 px, and opened again
 * on the shared tab it does not offer to share that tab again.
 */
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevtoolsTarget } from '../kit/devtools-target';
import { launchHeaded, type HeadedMachine } from '../kit/headed';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { until } from '../kit/wait';

let machine: HeadedMachine;
let pages: FixtureServer;

beforeAll(async () => {
  pages = await serveFixtures();
  machine = await launchHeaded('bproxy-headed-popup-');
  await machine.connected();
}, 120_000);

afterAll(async () => {
  await machine?.close();
  await pages?.close();
}, 60_000);

/** A shell as a person's: their HOME and BPROXY_HOME, a PATH of the system's folders only. */
function shell(line: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { HOME: machine.root, BPROXY_HOME: machine.cli.home, PATH: '/usr/bin:/bin' };
  return new Promise((resolve) => {
    execFile('/bin/sh', ['-c', line], { env, timeout: 45_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

const shown = (popup: DevtoolsTarget, id: string): Promise<boolean> =>
  popup.evaluate<boolean>(
    `(() => { const e = document.getElementById(${JSON.stringify(id)}); return !!e && !e.hidden && e.getClientRects().length > 0; })()`,
  );
/** Text drawn smaller than 13 px: the elements' ids or tags and their sizes. */
const smallText = (popup: DevtoolsTarget): Promise<string[]> =>
  popup.evaluate<string[]>(
    "[...document.querySelectorAll('body *')].filter((e) => e.getClientRects().length > 0 && [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== '')).filter((e) => parseFloat(getComputedStyle(e).fontSize) < 13).map((e) => `${e.id || e.tagName} ${getComputedStyle(e).fontSize}`)",
  );

describe('the real popup’s Share', () => {
  it('hands out a line that runs as pasted, fits without a scrollbar, and does not offer to share a shared tab', async () => {
    const page = await machine.browser.context.newPage();
    await page.goto(pages.url('ext-form.html'));
    await page.bringToFront();
    expect((await shell('command -v bproxy')).code).not.toBe(0);

    const popup = await machine.openPopup();
    await until('the popup’s Share', () => shown(popup, 'share-button'));
    await popup.click('#share-button');
    await until('the line', () => shown(popup, 'shared-line'));
    const line = await popup.evaluate<string>("document.getElementById('shared-line').textContent");
    // The popup lays itself out again after Share: nothing scrolls, either way, once Chrome resized it.
    const fits = () =>
      popup.evaluate<string>(
        '[document.documentElement.scrollHeight - innerHeight, document.documentElement.scrollWidth - innerWidth, innerWidth - document.documentElement.clientWidth].join(" ")',
      );
    await until(
      'the popup to fit',
      async () => (await fits()) === '0 0 0' || (await fits()).startsWith('-'),
      5_000,
    ).catch(() => undefined);
    const [down, across, bar] = (await fits()).split(' ').map(Number);
    expect({ down: Math.max(0, down ?? 0), across: Math.max(0, across ?? 0), bar }).toEqual({
      down: 0,
      across: 0,
      bar: 0,
    });
    expect(await smallText(popup)).toEqual([]);
    popup.close();

    const ran = await shell(line);
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    expect((JSON.parse(ran.stdout) as { snapshot: string }).snapshot).toContain('Name');

    // Opened again on the shared tab: its line, no Share.
    await page.bringToFront();
    const again = await machine.openPopup();
    await until('the shared tab’s line', () => shown(again, 'shared-line'));
    expect(await shown(again, 'share-button')).toBe(false);
    expect(await again.evaluate<string>("document.getElementById('shared-line').textContent")).toBe(line);
    expect(await again.evaluate<string>('document.body.innerText')).not.toContain('Share this tab');
    again.close();
    await page.close();
  });
});
