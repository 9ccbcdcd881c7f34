/**
 * A browser restart, with the real side panel: the tab the user shared is gone with the browser's last
 * run, and so is the session it had — the daemon closes it when the browser comes back (its hello
 * names a new run) instead of keeping a session that names a tab id the new run may give another tab.
 * The browser comes back paired, the panel with it, and the new tab starts free.
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
  machine = await launchHeaded('bproxy-headed-browser-restart-');
  await machine.connected();
}, 120_000);

afterAll(async () => {
  await machine?.close();
  await pages?.close();
}, 60_000);

const text = (panel: DevtoolsTarget, id: string): Promise<string> =>
  panel.evaluate<string>(`document.getElementById(${JSON.stringify(id)})?.textContent ?? ''`);

describe('a browser restart under the real side panel', () => {
  it('closes the session of the tab the user shared, and the browser comes back free of it', async () => {
    const page = await machine.browser.context.newPage();
    await page.goto(pages.url('ext-form.html'));
    await page.bringToFront();
    let { target: panel } = await machine.openSidePanel();
    await panel.click('#share');
    const shared = await until(
      'the session',
      async () => (await text(panel, 'session-id')) || undefined,
    ).catch(async (error: unknown) => {
      // What the panel said (a refusal, its status line) is the first thing to read when this fails.
      const said = `${await text(panel, 'handoff-message')} | ${await text(panel, 'status')}`;
      throw new Error(`${String(error)}; the panel says: ${said}`);
    });
    await machine.cli.ok(['text', '-s', shared]);
    // A worker restart is not a browser restart: the session is kept through it.
    await machine.browser.stopServiceWorkers();
    await machine.inWorker(() => true, null);
    expect(await machine.cli.ok(['session', 'list', '-s', shared])).toMatchObject({
      sessions: [expect.objectContaining({ session: shared })],
    });
    panel.close();

    await machine.restartBrowser();
    // The session goes once the browser is back (it says which run it is when it reconnects).
    const listed = async (): Promise<string[]> =>
      (
        await machine.cli.ok<{ sessions: { session: string }[] }>(['session', 'list', '-s', shared])
      ).sessions.map((s) => s.session);
    await until('the shared session to be closed', async () => !(await listed()).includes(shared), 40_000);
    expect(await machine.cli.failCode(['text', '-s', shared])).toBe('SESSION_NOT_FOUND');

    const fresh = await machine.browser.context.newPage();
    await fresh.goto(pages.url('ext-form.html?again'));
    await fresh.bringToFront();
    ({ target: panel } = await machine.openSidePanel());
    await until('connected', async () => (await text(panel, 'status')) === 'connected', 30_000);
    expect(await text(panel, 'tab-free-text')).toBe('No agent is working in this tab.');
    panel.close();
    await fresh.close();
  });
});
