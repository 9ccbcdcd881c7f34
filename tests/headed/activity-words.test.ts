/**
 * The real side panel's Activity says what agents did in words a person reads: "Clicked **Add mug to
 * cart**" — the name the agent's snapshot gave the element, carried by the handle it minted — which
 * kind of agent acted (the CLI, an MCP client by the name it gave), and an attempt refused while the
 * person holds the tab ("CLI is waiting: click on Add mug to cart refused, paused"). No handle (el4),
 * tab handle (t1), session id or pacing jargon is shown.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevtoolsTarget } from '../kit/devtools-target';
import { launchHeaded, type HeadedMachine } from '../kit/headed';
import { handleOf, McpClient } from '../kit/mcp';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { until } from '../kit/wait';

let machine: HeadedMachine;
let pages: FixtureServer;

beforeAll(async () => {
  pages = await serveFixtures();
  machine = await launchHeaded('bproxy-headed-activity-');
  await machine.connected();
}, 120_000);

afterAll(async () => {
  await machine?.close();
  await pages?.close();
}, 60_000);

const text = (panel: DevtoolsTarget, id: string): Promise<string> =>
  panel.evaluate<string>(`document.getElementById(${JSON.stringify(id)})?.textContent ?? ''`);
/** The feed's entries, newest first: what, detail, who, and the words set in bold. */
const feed = (panel: DevtoolsTarget): Promise<{ what: string; who: string; bold: string }[]> =>
  panel.evaluate(
    "[...document.querySelectorAll('#feed li:not(.gap)')].map((li) => ({ what: li.querySelector('.what').textContent, who: li.querySelector('.who').textContent, bold: [...li.querySelectorAll('.what strong')].map((b) => b.textContent).join('|') }))",
  );

describe('the real side panel’s Activity, in words', () => {
  it('says what was done to which element, by which agent, and what was refused while paused', async () => {
    const shop = await machine.browser.context.newPage();
    await shop.goto(pages.url('shop.html'));
    await shop.bringToFront();
    const { target: panel } = await machine.openSidePanel();
    await until('connected', async () => (await text(panel, 'status')) === 'connected');
    await panel.click('#share');
    await until('shared', async () => (await text(panel, 'session-id')) !== '');
    const session = await text(panel, 'session-id');

    // The CLI reads the page, then clicks the handle the read gave the button.
    const read = await machine.cli.ok<{ snapshot: string }>(['snapshot', '-s', session]);
    const handle = handleOf(read.snapshot, /Add mug to cart/);
    await machine.cli.ok(['click', handle, '-s', session]);
    await until('the click in words', async () => (await feed(panel))[0]?.what === 'Clicked Add mug to cart');
    const [clicked, snapshot] = await feed(panel);
    expect(clicked).toEqual({ what: 'Clicked Add mug to cart', who: 'CLI', bold: 'Add mug to cart' });
    expect(snapshot).toEqual({ what: 'Read the page', who: 'CLI', bold: '' });

    // An MCP client acts: the feed names it as it named itself.
    const env = { ...machine.cli.environment(), BPROXY_SESSION: '' };
    const mcp = await McpClient.start(env, ['-s', session], 'Test Desk');
    try {
      await mcp.ok('text', {});
      await until('the MCP client’s read', async () => (await feed(panel))[0]?.who === 'MCP · Test Desk');
      expect((await feed(panel))[0]?.what).toBe('Read the page’s text');
    } finally {
      await mcp.close();
    }

    // The person takes over; the CLI's click is refused, and the feed says an agent is waiting.
    await panel.click('#take-over');
    await until('taken over', async () => (await text(panel, 'session-state')) === 'paused');
    expect((await machine.cli.fail(['click', handle, '-s', session])).code).toBe('HUMAN_REQUIRED');
    await until('the refusal in words', async () =>
      (await feed(panel)).some((e) => e.what === 'CLI is waiting: click on Add mug to cart refused, paused'),
    );

    // Nothing for agents only: no handles, tab handles, session ids or pacing jargon.
    const shown = await text(panel, 'feed');
    expect(shown).not.toMatch(/\b(?:el|ln)\d+\b|\bt\d+\b|paced|shared by the user/);
    expect(shown).not.toContain(session);
    panel.close();
    await shop.close();
  });
});
