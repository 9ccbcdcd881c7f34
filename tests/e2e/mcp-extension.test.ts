/**
 * `bproxy mcp --browser NAME` against the extension driver: the daemon started by `bproxy service
 * start`, headless Chromium with the built extension paired through its popup, and a real MCP client
 * driving a form in that browser by handle.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cli } from '../kit/cli';
import { pair, launchWithExtension, type ExtensionBrowser } from '../kit/extension';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { until } from '../kit/wait';
import { McpClient, handleOf } from '../kit/mcp';

let browser: ExtensionBrowser;
let pages: FixtureServer;
let cli: Cli;
let mcp: McpClient;
let browserName = '';

beforeAll(async () => {
  pages = await serveFixtures();
  cli = new Cli();
  const started = await cli.start();
  browser = await launchWithExtension();
  await pair(browser, started.pairingCode, started.port);
  const client = await until('the extension client to connect', async () => {
    const status = await cli.ok<{ clients: { name: string; kind: string; connected: boolean }[] }>([
      'debug',
      'status',
    ]);
    return status.clients.find((c) => c.kind === 'extension' && c.connected);
  });
  browserName = client.name;
  mcp = await McpClient.start(
    { ...process.env, BPROXY_HOME: cli.home, BPROXY_SESSION: '' },
    ['--pacing', 'fast', '--browser', browserName],
    'agent-ext',
  );
}, 90_000);

afterAll(async () => {
  await mcp?.close();
  await browser?.close();
  await cli?.dispose();
  await pages?.close();
});

describe('bproxy mcp with the paired extension', () => {
  it('opens its tab in the paired browser and acts there by handle', async () => {
    expect(await mcp.ok('tab_open', { url: pages.url('ext-form.html') })).toMatch(
      new RegExp(`^opened t1 \\(current\\) in ${browserName}: .*"Extension form"$`),
    );
    const snap = await mcp.ok('snapshot');
    await mcp.ok('fill', { target: handleOf(snap, /textbox "Name"/), value: 'Grace' });
    const clicked = await mcp.ok('click', { target: handleOf(snap, /button "Send"/) });
    expect(clicked).toMatch(/navigated to .*ext-done\.html\?name=Grace/);
    expect(await mcp.ok('text')).toContain('query: ?name=Grace');
    const stale = await mcp.call('click', { target: handleOf(snap, /button "Send"/) });
    expect(stale.isError).toBe(true);
    expect(stale.text).toMatch(/^ELEMENT_HANDLE_(STALE|NOT_FOUND): [^\n]*\nWhat to do: /);
  }, 60_000);

  it('closes its session and the tab in the browser when the client goes away', async () => {
    const pagesBefore = browser.context.pages().length;
    await mcp.close();
    await until('the tab to close', () => browser.context.pages().length < pagesBefore, 15_000);
    const status = await cli.ok<{ sessions: { label?: string }[] }>(['debug', 'status']);
    expect(status.sessions.filter((s) => s.label === 'mcp agent-ext')).toEqual([]);
  }, 30_000);
});
