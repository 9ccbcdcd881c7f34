/**
 * Approvals in the real side panel, as a person meets them: a headed Chromium on a virtual screen, the
 * built extension paired by the native host, the panel opened with a real click on the popup's Open
 * side panel. An agent's Place order on a checkout (card fields) is held; the panel shows it above the
 * view that is open, the toolbar badge says a decision waits; a real mouse click on Allow once lets the
 * agent's retry run exactly once (the page counts the orders), and the badge returns to what it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevtoolsTarget } from '../kit/devtools-target';
import { launchHeaded, type HeadedMachine } from '../kit/headed';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { ASKING_POLICY, writePolicy } from '../kit/suites/approvals';
import { until } from '../kit/wait';

let machine: HeadedMachine;
let pages: FixtureServer;

beforeAll(async () => {
  pages = await serveFixtures();
  machine = await launchHeaded('bproxy-headed-approvals-');
  await machine.connected();
  writePolicy(machine.cli.home, ASKING_POLICY);
}, 120_000);

afterAll(async () => {
  await machine?.close();
  await pages?.close();
}, 60_000);

const text = (panel: DevtoolsTarget, id: string): Promise<string> =>
  panel.evaluate<string>(`document.getElementById(${JSON.stringify(id)})?.textContent ?? ''`);

const badge = (): Promise<string> =>
  machine.inWorker(
    () =>
      (
        globalThis as unknown as { chrome: { action: { getBadgeText(d: object): Promise<string> } } }
      ).chrome.action.getBadgeText({}),
    null,
  );

describe('approvals in the real side panel', () => {
  it('shows the held Place order with the badge, and Allow once clicked there runs it exactly once', async () => {
    const shop = await machine.browser.context.newPage();
    await shop.goto(pages.url('approvals-checkout.html'));
    await shop.bringToFront();
    const { target: panel } = await machine.openSidePanel();
    await until('connected', async () => (await text(panel, 'status')) === 'connected');
    await panel.click('#share');
    await until('shared', async () => (await text(panel, 'session-id')) !== '');
    const session = await text(panel, 'session-id');
    await until('the badge to count the session', async () => (await badge()) === '1' || undefined);
    // The view open is the Activity: the question shows above it all the same.
    await machine.cli.ok(['fill', '-s', session, '--selector', '#card', '4242424242424242']);
    const click = ['click', '-s', session, '--selector', '#pay button'];
    const held = (await machine.cli.fail(click)) as { code: string; details?: { approval?: string } };
    expect(held.code).toBe('APPROVAL_REQUIRED');
    const id = held.details?.approval ?? '';
    const card = `#approvals li[data-approval="${id}"]`;
    await until('the question in the panel', () =>
      panel.evaluate<boolean>(
        `!document.getElementById('approvals').hidden && document.querySelector(${JSON.stringify(card)}) !== null`,
      ),
    );
    const shown = await panel.evaluate<string>(`document.querySelector(${JSON.stringify(card)}).textContent`);
    expect(shown).toContain('Click “Place order”');
    expect(shown).toContain(pages.origin);
    expect(shown).toContain('••••');
    expect(shown).not.toContain('4242');
    await until('the badge to say a decision waits', async () => (await badge()) === '1?' || undefined);
    expect(await shop.textContent('#orders')).toBe('0');

    await panel.click(`${card} button[data-decision="allow_once"]`);
    await until('the question gone', () =>
      panel.evaluate<boolean>(`document.querySelector(${JSON.stringify(card)}) === null`),
    );
    await until('the badge back to the session count', async () => (await badge()) === '1' || undefined);
    await machine.cli.ok(click);
    expect(await shop.textContent('#orders')).toBe('1');
    // Once: the next click is asked again, and nothing more ran.
    expect((await machine.cli.fail(click)).code).toBe('APPROVAL_REQUIRED');
    expect(await shop.textContent('#orders')).toBe('1');
    await machine.cli.ok(['session', 'close', '-s', session]);
    panel.close();
    await shop.close();
  });
});
