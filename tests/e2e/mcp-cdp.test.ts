/**
 * `bproxy mcp` end to end with the CDP driver: the MCP suite (tests/kit/suites/mcp.ts) with real MCP
 * clients spawning the built CLI, which starts the daemon and its embedded headless Chromium on first
 * use — nothing runs before the first client.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { chromiumPath, expectNoChromiumLeft, removeProfile } from '../kit/chromium';
import { runCli } from '../kit/mcp';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { defineMcpSuite, type McpEnv } from '../kit/suites/mcp';

let pages: FixtureServer | undefined;
let home: string | undefined;
let env: NodeJS.ProcessEnv | undefined;
let starting: Promise<McpEnv> | undefined;

async function start(): Promise<McpEnv> {
  pages = await serveFixtures();
  home = mkdtempSync(join(tmpdir(), 'bproxy-mcp-e2e-'));
  env = {
    ...process.env,
    BPROXY_HOME: home,
    BPROXY_PORT: '0',
    BPROXY_SESSION: '',
    CHROME_PATH: chromiumPath(),
  };
  // The first MCP client starts the daemon: none runs before it.
  const status = JSON.parse((await runCli(env, ['service', 'status'])).stdout) as { running: boolean };
  if (status.running) throw new Error('a daemon already runs in the fresh BPROXY_HOME');
  return { env, home, pages, browser: 'headless', args: [] };
}

afterAll(async () => {
  if (env) await runCli(env, ['service', 'stop']);
  await pages?.close();
  if (home) {
    await expectNoChromiumLeft([home]);
    await removeProfile(home);
  }
}, 60_000);

defineMcpSuite({
  label: 'the headless browser',
  start: () => (starting ??= start()),
});
