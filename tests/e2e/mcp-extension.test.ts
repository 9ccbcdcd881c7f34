/**
 * `bproxy mcp --browser NAME` against the extension driver: the daemon started by `bproxy service
 * start`, headless Chromium with the built extension paired through its popup, then the MCP suite
 * (tests/kit/suites/mcp.ts) with real MCP clients driving that browser — and what the extension adds:
 * the tab the client opened closes in the browser when the client goes away.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { expectNoChromiumLeft } from '../kit/chromium';
import { Cli } from '../kit/cli';
import { pair, launchWithExtension, type ExtensionBrowser } from '../kit/extension';
import { McpClient } from '../kit/mcp';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { defineMcpSuite, type McpEnv } from '../kit/suites/mcp';
import { until } from '../kit/wait';

let browser: ExtensionBrowser | undefined;
let pages: FixtureServer | undefined;
let cli: Cli | undefined;
let starting: Promise<McpEnv> | undefined;

async function start(): Promise<McpEnv> {
  pages = await serveFixtures();
  const c = new Cli('bproxy-e2e-mcp-ext-');
  cli = c;
  const started = await c.start(['--browser', 'none']);
  browser = await launchWithExtension();
  await pair(browser, started.pairingCode, started.port);
  const client = await until('the extension client to connect', async () => {
    const status = await c.ok<{ clients: { name: string; kind: string; connected: boolean }[] }>([
      'debug',
      'status',
    ]);
    return status.clients.find((x) => x.kind === 'extension' && x.connected);
  });
  return {
    env: c.environment(),
    home: c.home,
    pages,
    browser: client.name,
    args: ['--browser', client.name],
  };
}

const extension = { label: 'the paired extension', start: () => (starting ??= start()) };

afterAll(async () => {
  const dirs = [browser?.userDataDir, cli?.home].filter((d): d is string => d !== undefined);
  await browser?.close();
  await cli?.dispose();
  await pages?.close();
  await expectNoChromiumLeft(dirs);
}, 60_000);

defineMcpSuite(extension);

describe('bproxy mcp with the paired extension', () => {
  it('closes its session and the tab in the browser when the client goes away', async () => {
    const e = await extension.start();
    const b = browser;
    if (b === undefined) throw new Error('the extension did not start');
    const mcp = await McpClient.start(e.env, [...e.args, '--pacing', 'fast'], 'agent-ext');
    await mcp.ok('tab_open', { url: e.pages.url('ext-form.html') });
    const pagesBefore = b.context.pages().length;
    await mcp.close();
    await until('the tab to close', () => b.context.pages().length < pagesBefore, 15_000);
    const status = await cli?.ok<{ sessions: { label?: string }[] }>(['debug', 'status']);
    expect(status?.sessions.filter((s) => s.label === 'mcp agent-ext')).toEqual([]);
  }, 60_000);
});
