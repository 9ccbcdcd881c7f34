/**
 * The whole product with the CDP driver as the browser, through the real daemon and CLI: the shared
 * action suite on the embedded headless Chromium the daemon launches on first use, then what only
 * the CDP driver has — the launched browser killed mid-session and relaunched by the next `tab open`,
 * attaching to a Chromium started separately (left running when the daemon stops), and a remote
 * Chromium reached through its ws URL.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { until } from '../kit/wait';
import { defineActionSuite, type DriverUnderTest, type SuiteEnv } from '../kit/suites/actions';
import { Agent } from '../kit/agent';
import {
  browserPidUsing,
  chromiumPidsUsing,
  expectNoChromiumLeft,
  isRunning,
  startDebuggableChromium,
  type DebuggableChromium,
} from '../kit/chromium';
import { Cli } from '../kit/cli';

interface Status {
  clients: { name: string; kind: string; connected: boolean }[];
  sessions: { session: string; tab: string | null; tabs: string[] }[];
}

let pages: FixtureServer | undefined;
const clis: Cli[] = [];
let external: DebuggableChromium | undefined;
let starting: Promise<SuiteEnv> | undefined;

function newCli(): Cli {
  const c = new Cli('bproxy-e2e-cdp-home-');
  clis.push(c);
  return c;
}

async function fixtures(): Promise<FixtureServer> {
  pages ??= await serveFixtures();
  return pages;
}

async function startHeadless(): Promise<SuiteEnv> {
  const p = await fixtures();
  const c = newCli();
  await c.start(['--browser', 'headless']);
  return { cli: c, pages: p, browser: 'headless' };
}

const headless: DriverUnderTest = {
  label: 'the CDP driver (embedded headless Chromium)',
  start: () => (starting ??= startHeadless()),
};

afterAll(async () => {
  const dirs = [...clis.map((c) => c.home), ...(external ? [external.userDataDir] : [])];
  for (const c of clis) await c.dispose();
  await external?.close();
  await pages?.close();
  await expectNoChromiumLeft(dirs);
}, 60_000);

defineActionSuite(headless);

describe('what only the CDP driver has', () => {
  it('reports a killed browser clearly, and the next tab open relaunches it', async () => {
    const env = await headless.start();
    const agent = new Agent(env);
    const profiles = join(env.cli.home, 'profiles');
    const s = await agent.session('ext-counter.html');
    const pid = browserPidUsing(profiles);
    if (pid === undefined) throw new Error(`no launched Chromium under ${profiles}`);

    // Killed while a click is running in the page: that request fails, it does not hang.
    const before = env.pages.hits('/count/slow-start');
    const click = env.cli.fail(['click', '-s', s, '--selector', '#slow']);
    await until('the slow click to start', () => env.pages.hits('/count/slow-start') === before + 1);
    process.kill(pid, 'SIGKILL');
    const inFlight = await click;
    expect(inFlight.code).toBe('BROWSER_DISCONNECTED');
    expect(inFlight.message).toMatch(/browser went away/);

    // Once the daemon has dropped the dead tab, the next action says the tab is gone and why.
    await until('the daemon to drop the dead tab', async () => {
      const status = await env.cli.ok<Status>(['debug', 'status']);
      return status.sessions.find((x) => x.session === s)?.tabs.length === 0;
    });
    const next = await env.cli.fail(['text', '-s', s]);
    expect(next.code).toBe('TAB_NOT_FOUND');
    expect(next.message).toMatch(/t1 .*browser went away/);

    const reopened = await agent.openTab(s, 'counter.html');
    expect(reopened.tab).toBe('t2');
    const relaunched = browserPidUsing(profiles);
    expect(relaunched).toBeDefined();
    expect(relaunched).not.toBe(pid);
    expect(isRunning(pid)).toBe(false);
    await env.cli.ok(['click', '-s', s, '--selector', '#inc']);
    expect(await agent.text(s)).toContain('Count: 1');
    await agent.close(s);
  }, 60_000);

  it('attaches to a Chromium started separately and leaves it running when the daemon stops', async () => {
    external ??= await startDebuggableChromium();
    const c = newCli();
    await c.start(['--browser', 'none', '--attach', external.userDataDir]);
    const agent = new Agent({ cli: c, pages: await fixtures(), browser: 'attached' });
    const s = await agent.session('counter.html');
    await c.ok(['click', '-s', s, await agent.element(s, 'Increment')]);
    expect(await agent.text(s)).toContain('Count: 1');
    await c.ok(['navigate', '-s', s, agent.url('forms.html')]);
    await c.ok(['fill', '-s', s, '--selector', '#name', 'Ada']);
    await c.ok(['press', '-s', s, 'Enter', '--into', await agent.element(s, 'Full name')]);
    expect(await agent.text(s)).toContain('Submitted: name=Ada');

    const status = await c.ok<Status>(['debug', 'status']);
    expect(status.clients.map((x) => [x.name, x.kind])).toEqual([['attached', 'cdp']]);
    // The tab lives in the external browser, not in one the daemon launched.
    expect(await pageUrls(external)).toContain(agent.url('forms.html'));
    expect(chromiumPidsUsing(join(c.home, 'profiles'))).toEqual([]);

    await c.stop();
    expect(await external.alive()).toBe(true);
  }, 60_000);

  it('drives a remote Chromium reached through its ws URL', async () => {
    external ??= await startDebuggableChromium();
    const c = newCli();
    await c.start(['--browser', 'none', '--cdp-url', external.wsUrl]);
    const agent = new Agent({ cli: c, pages: await fixtures(), browser: 'remote' });
    const s = await agent.session('shadow.html');
    await c.ok(['click', '-s', s, await agent.element(s, 'Shadow button')]);
    expect(await agent.text(s)).toContain('Shadow clicks: 1');
    await c.ok(['navigate', '-s', s, agent.url('long.html')]);
    const scrolled = await c.ok<{ atBottom: boolean }>(['scroll', '-s', s, '--to', 'bottom']);
    expect(scrolled.atBottom).toBe(true);
    expect(await pageUrls(external)).toContain(agent.url('long.html'));

    const status = await c.ok<Status>(['debug', 'status']);
    expect(status.clients.map((x) => [x.name, x.kind])).toEqual([['remote', 'cdp']]);
    await agent.close(s);
    expect(await pageUrls(external)).not.toContain(agent.url('long.html'));
    await c.stop();
    expect(await external.alive()).toBe(true);
  }, 60_000);
});

describe('file: URLs, opted into with --allow-file-urls', () => {
  it('opens local files in the browser the daemon launched, and still never in an attached one', async () => {
    external ??= await startDebuggableChromium();
    const dir = mkdtempSync(join(tmpdir(), 'bproxy-e2e-file-'));
    try {
      writeFileSync(join(dir, 'note.html'), '<title>Local note</title><p>local file words 7f3a</p>');
      const file = pathToFileURL(join(dir, 'note.html')).href;
      const c = newCli();
      const help = await c.run(['service', 'start', '--help']);
      expect(help.stdout).toMatch(/--allow-file-urls +let the browser bproxy launches/);
      // Without a browser of its own there is nothing to allow it for: said, and nothing starts.
      const none = await c.run(['service', 'start', '--browser', 'none', '--allow-file-urls']);
      expect(none.code).not.toBe(0);
      expect(none.stderr).toMatch(/--allow-file-urls is for a browser bproxy launches/);

      await c.start(['--browser', 'headless', '--allow-file-urls', '--attach', external.userDataDir]);
      const opened = await c.ok<{ session: string; url: string; title: string }>([
        'tab',
        'open',
        '--url',
        file,
        '--browser',
        'headless',
      ]);
      expect(opened).toMatchObject({ url: file, title: 'Local note' });
      expect((await c.ok<{ text: string }>(['text', '-s', opened.session])).text).toContain(
        'local file words 7f3a',
      );
      expect(await c.failCode(['navigate', '-s', opened.session, 'data:text/html,x'])).toBe(
        'URL_NOT_ALLOWED',
      );

      const attached = await c.fail(['tab', 'open', '--url', file, '--browser', 'attached']);
      expect(attached.code).toBe('URL_NOT_ALLOWED');
      expect(attached.message).toMatch(/--allow-file-urls \(not browser "attached"\)/);
      expect(await pageUrls(external)).not.toContain(file);
      await c.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

/** The URLs of the page targets the external browser's DevTools endpoint lists. */
async function pageUrls(browser: DebuggableChromium): Promise<string[]> {
  const res = await fetch(`http://127.0.0.1:${browser.port}/json/list`);
  const targets = (await res.json()) as { type: string; url: string }[];
  return targets.filter((t) => t.type === 'page').map((t) => t.url);
}
