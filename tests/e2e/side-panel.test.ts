/**
 * The side panel through the real extension (its page opened as a tab for one tab of the user's: side
 * panels do not render headless), against the real daemon and the real CLI: sharing the tab gives the
 * session a CLI agent then drives; the feed shows the CLI's actions as they run; Take over makes agents
 * wait with the reason, Resume lets them go on, Close ends the session and leaves the tab open; the tab
 * group and the toolbar badge follow the session's state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Worker } from 'playwright-core';
import { launchWithExtension, pair, type ExtensionBrowser } from '../kit/extension';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { until } from '../kit/wait';
import { expectNoChromiumLeft } from '../kit/chromium';
import { PANEL_SIZE } from '../kit/screenshots';
import { Cli } from '../kit/cli';

let cli: Cli;
let browser: ExtensionBrowser;
let pages: FixtureServer;

beforeAll(async () => {
  pages = await serveFixtures();
  cli = new Cli('bproxy-e2e-panel-');
  const started = await cli.start(['--browser', 'none']);
  browser = await launchWithExtension();
  await pair(browser, started.pairingCode, started.port);
  await until(
    'the extension to connect',
    async () => {
      const status = await cli.ok<{ clients: { kind: string; connected: boolean }[] }>(['debug', 'status']);
      return status.clients.some((c) => c.kind === 'extension' && c.connected);
    },
    20_000,
  );
}, 90_000);

afterAll(async () => {
  const dirs = [browser?.userDataDir, cli?.home].filter((d): d is string => d !== undefined);
  await browser?.close();
  await cli?.dispose();
  await pages?.close();
  await expectNoChromiumLeft(dirs);
}, 60_000);

/** The raw id of the tab showing `url`, as the extension knows it. */
async function tabIdOf(worker: Worker, url: string): Promise<number> {
  const id = await worker.evaluate(async (u) => {
    const api = (
      globalThis as unknown as { chrome: { tabs: { query(q: object): Promise<{ id?: number }[]> } } }
    ).chrome;
    const [tab] = await api.tabs.query({ url: u });
    return tab?.id ?? null;
  }, url);
  if (id === null) throw new Error(`no tab shows ${url}`);
  return id;
}

/** The toolbar badge, and the title of the tab's group ('' when ungrouped). */
async function chromeMarks(worker: Worker, tabId: number): Promise<{ badge: string; group: string }> {
  return worker.evaluate(async (id) => {
    const api = (
      globalThis as unknown as {
        chrome: {
          action: { getBadgeText(d: object): Promise<string> };
          tabs: { get(id: number): Promise<{ groupId: number }> };
          tabGroups: { get(id: number): Promise<{ title?: string }> };
        };
      }
    ).chrome;
    const badge = await api.action.getBadgeText({});
    const { groupId } = await api.tabs.get(id);
    const group = groupId >= 0 ? ((await api.tabGroups.get(groupId)).title ?? '') : '';
    return { badge, group };
  }, tabId);
}

async function feed(panel: Page): Promise<string[]> {
  return panel.$$eval('#feed li .what', (items) => items.map((i) => i.textContent ?? ''));
}

describe('the side panel', () => {
  it('shares the tab, shows what the CLI does there live, and hands the session over and back', async () => {
    const userPage = await browser.context.newPage();
    await userPage.goto(pages.url('ext-form.html'));
    const worker = await browser.worker();
    const tabId = await tabIdOf(worker, pages.url('ext-form.html'));
    const panel = await browser.context.newPage();
    await panel.setViewportSize(PANEL_SIZE);
    await panel.goto(`chrome-extension://${browser.extensionId}/panel.html?tab=${tabId}`);

    await panel.click('#share');
    const session = await until('the panel to show the session', async () => {
      const text = (await panel.textContent('#session-id')) ?? '';
      return text === '' ? undefined : text;
    });
    expect(await panel.textContent('#cli-command')).toBe(`bproxy -s ${session} snapshot`);
    // The pacing of a tab the user shared is theirs: set in the panel, and no agent sets it back.
    expect(await panel.inputValue('#session-pacing')).toBe('human');
    await panel.selectOption('#session-pacing', 'fast');
    await until('the session to be paced fast', async () => {
      const listed = await cli.ok<{ sessions: { pacing: string }[] }>(['session', 'list', '-s', session]);
      return listed.sessions[0]?.pacing === 'fast' ? true : undefined;
    });
    expect((await cli.fail(['session', 'bind', '-s', session, '--pacing', 'human'])).code).toBe(
      'PACING_SET_BY_USER',
    );

    const elements = await cli.ok<{ elements: { handle: string; name: string; role: string }[] }>([
      'elements',
      '-s',
      session,
    ]);
    const name = elements.elements.find((e) => e.role === 'textbox');
    if (!name) throw new Error('no field on the form');
    await cli.ok(['fill', '-s', session, name.handle, '--value', 'Ada']);
    await until('the fill in the feed', async () =>
      (await feed(panel)).some((w) => w.startsWith('Filled in')),
    );
    const items = await feed(panel);
    // In words, with the field's name the read gave it; never the handle.
    expect(items[0]).toBe(name.name === '' ? 'Filled in a textbox' : `Filled in ${name.name}`);
    expect(items.some((w) => w === 'Read the page’s controls')).toBe(true);
    expect(await panel.textContent('#feed')).not.toContain(name.handle);
    expect(await panel.textContent('#feed')).not.toContain('Ada');
    await until('the group and badge', async () => {
      const marks = await chromeMarks(worker, tabId);
      return marks.badge === '1' && marks.group === 'bproxy · shared: 127.0.0.1';
    });

    await panel.click('#take-over');
    await until(
      'the panel to say paused',
      async () => (await panel.textContent('#session-state')) === 'paused',
    );
    const refused = await cli.fail(['text', '-s', session]);
    expect(refused.code).toBe('HUMAN_REQUIRED');
    expect(refused.message).toMatch(/took over/);
    await until('the paused marks', async () => {
      const marks = await chromeMarks(worker, tabId);
      return marks.badge === '1!' && marks.group.startsWith('bproxy · paused · ');
    });

    await panel.click('#resume');
    await until(
      'the panel to say resumed',
      async () => (await panel.textContent('#session-state')) === 'active',
    );
    expect((await cli.ok<{ text: string }>(['text', '-s', session])).text).toContain('Order form');
    expect(await feed(panel)).toEqual(expect.arrayContaining(['Resumed', 'Paused: waiting for you']));

    await panel.click('#close-session');
    await panel.click('#close-confirm-yes');
    await until('the panel to forget the session', async () => await panel.isVisible('#tab-free'));
    expect(userPage.isClosed()).toBe(false);
    await until('the marks to go', async () => {
      const marks = await chromeMarks(worker, tabId);
      return marks.badge === '' && marks.group === '';
    });
    await panel.close();
    await userPage.close();
  }, 60_000);

  it('replays the feed when it opens again, and brings an entry’s tab to the front', async () => {
    const { session, tab } = await cli.ok<{ session: string; tab: string }>([
      'tab',
      'open',
      '--url',
      pages.url('ext-done.html'),
    ]);
    expect(tab).toBe('t1');
    await cli.ok(['session', 'bind', '-s', session, '--pacing', 'fast']);
    await cli.ok(['text', '-s', session]);
    const panel = await browser.context.newPage();
    await panel.goto(`chrome-extension://${browser.extensionId}/panel.html?tab=1`);
    await panel.check('#all-tabs');
    await until('the replayed entries', async () => (await feed(panel)).includes('Read the page’s text'));
    const before = (await browser.context.pages()).find((p) => p.url() === pages.url('ext-done.html'));
    expect(before).toBeDefined();
    await panel.click('#feed li:has(.what:text-is("Read the page’s text"))');
    await until(
      'the tab to come to the front',
      async () => (await before?.evaluate(() => document.visibilityState)) === 'visible',
    );
    await cli.ok(['session', 'close', '-s', session]);
    await panel.close();
  }, 60_000);

  it("puts the tabs a page opens in its session's tab group", async () => {
    const { session } = await cli.ok<{ session: string }>([
      'tab',
      'open',
      '--url',
      pages.url('trusted.html'),
    ]);
    await cli.ok(['session', 'bind', '-s', session, '--pacing', 'fast']);
    const handleOf = async (name: string): Promise<string> => {
      const { elements } = await cli.ok<{ elements: { handle: string; name: string }[] }>([
        'elements',
        '-s',
        session,
      ]);
      const found = elements.find((e) => e.name === name);
      if (found === undefined) throw new Error(`no element named ${name}`);
      return found.handle;
    };
    const popup = await cli.ok<{ openedTabs?: { tab: string }[] }>([
      'click',
      '-s',
      session,
      await handleOf('Open popup'),
    ]);
    expect(popup.openedTabs?.map((t) => t.tab)).toEqual(['t2']);
    const blank = await cli.ok<{ openedTabs?: { tab: string }[] }>([
      'click',
      '-s',
      session,
      await handleOf('Open in a new tab'),
    ]);
    expect(blank.openedTabs?.map((t) => t.tab)).toEqual(['t3']);
    const worker = await browser.worker();
    const [opener, opened, popupTab] = await Promise.all(
      ['trusted.html', 'opened.html', 'popup.html'].map((page) => tabIdOf(worker, pages.url(page))),
    );
    const groupOf = async (id: number | undefined): Promise<string> =>
      id === undefined ? 'no tab' : (await chromeMarks(worker, id)).group;
    await until('the opener and both tabs it opened to share the session group', async () => {
      const groups = await Promise.all([opener, opened, popupTab].map(groupOf));
      return groups.every((g) => g === `bproxy · ${session}`);
    });
    await cli.ok(['session', 'close', '-s', session]);
  }, 60_000);

  it('says why a session stopped at a CAPTCHA and lets it go on after Resume', async () => {
    const { session } = await cli.ok<{ session: string; tab: string }>([
      'tab',
      'open',
      '--url',
      pages.url('ext-form.html'),
    ]);
    await cli.ok(['session', 'bind', '-s', session, '--pacing', 'fast']);
    const worker = await browser.worker();
    const tabId = await tabIdOf(worker, pages.url('ext-form.html'));
    const panel = await browser.context.newPage();
    await panel.setViewportSize(PANEL_SIZE);
    await panel.goto(`chrome-extension://${browser.extensionId}/panel.html?tab=${tabId}`);
    await until(
      'the panel to show the session',
      async () => (await panel.textContent('#session-id')) === session,
    );

    const stopped = await cli.fail(['navigate', '-s', session, pages.url('ext-captcha.html')]);
    expect(stopped.code).toBe('HUMAN_REQUIRED');
    await until(
      'the panel to say paused',
      async () => (await panel.textContent('#session-state')) === 'paused',
    );
    expect((await panel.textContent('#pause-reason')) ?? '').toMatch(/captcha/i);
    expect(await panel.isEnabled('#resume')).toBe(true);
    expect((await cli.fail(['text', '-s', session])).code).toBe('HUMAN_REQUIRED');

    // The human solves it (here: leaves the page), then hands the session back from the panel.
    const page = browser.context.pages().find((p) => p.url() === pages.url('ext-captcha.html'));
    await page?.goto(pages.url('ext-done.html'));
    await panel.click('#resume');
    await until(
      'the panel to say resumed',
      async () => (await panel.textContent('#session-state')) === 'active',
    );
    expect((await cli.ok<{ url: string }>(['text', '-s', session])).url).toBe(pages.url('ext-done.html'));
    await cli.ok(['session', 'close', '-s', session]);
    await panel.close();
  }, 60_000);
});
