/**
 * The in-browser agent with the Claude Code provider, end to end: the built CLI starts the daemon
 * (embedded headless Chromium), a session holds the shop page (the tab a user shared), and a scripted
 * `claude` on PATH starts the real `bproxy mcp --session ID` from the agent's --mcp-config, lists its
 * tools and calls them — snapshot, click the handle it found, read the cart — so the page in that
 * session really changes, and the session is still open afterwards.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DaemonClient } from '@bproxy/client';
import { createAgentService, type AgentService } from '@bproxy/agent';
import { agentPaths, writeConfigFile } from '@bproxy/agent/config';
import { ExtensionToHostSchema, type HostToExtension } from '@bproxy/protocol';
import { chromiumPath, removeProfile } from '../kit/chromium';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { ROOT } from '../kit/paths';
import { until } from '../kit/wait';
import { CLI, runCli } from '../kit/mcp';

const FAKE = join(ROOT, 'packages', 'agent', 'test', 'helpers', 'fake-claude.mjs');
let pages: FixtureServer;
let home: string;
let bin: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  pages = await serveFixtures();
  home = mkdtempSync(join(tmpdir(), 'bproxy-agent-e2e-'));
  bin = mkdtempSync(join(tmpdir(), 'bproxy-agent-bin-'));
  writeFileSync(join(bin, 'claude'), `#!${process.execPath}\nimport(${JSON.stringify(FAKE)});\n`);
  chmodSync(join(bin, 'claude'), 0o755);
  env = {
    ...process.env,
    BPROXY_HOME: home,
    BPROXY_PORT: '0',
    BPROXY_SESSION: '',
    CHROME_PATH: chromiumPath(),
  };
  expect((await runCli(env, ['service', 'start'])).code).toBe(0);
}, 60_000);

afterAll(async () => {
  if (env) await runCli(env, ['service', 'stop']);
  await pages?.close();
  if (home) await removeProfile(home);
  if (bin) rmSync(bin, { recursive: true, force: true });
});

describe('the agent with Claude Code in a shared tab', { timeout: 60_000 }, () => {
  it('drives the tab through bproxy mcp bound to the session: the cart really changes', async () => {
    const opened = await runCli(env, ['tab', 'open', '--url', pages.url('shop.html')]);
    const session = (JSON.parse(opened.stdout) as { session: string }).session;
    writeConfigFile(agentPaths(home), {
      version: 1,
      provider: 'claude-code',
      models: {},
      baseUrl: null,
      tools: { fill: false },
    });
    const record = join(bin, 'record.jsonl');
    const client = new DaemonClient({ env, keepAlive: true });
    const messages: HostToExtension[] = [];
    const agent: AgentService = createAgentService({
      home,
      client,
      env: {
        ...env,
        PATH: `${bin}:${process.env.PATH ?? ''}`,
        FAKE_CLAUDE_SCRIPT: 'mcp-shop',
        FAKE_CLAUDE_RECORD: record,
      },
      bproxyCommand: [process.execPath, CLI],
    });
    try {
      const message = ExtensionToHostSchema.parse({
        type: 'user',
        chatId: 'shop',
        text: 'add the mug',
        session,
      });
      if (message.type !== 'user') throw new Error('unreachable');
      agent.handle(message, (m) => messages.push(m));
      const end = await until(
        'the turn to end',
        () => messages.find((m) => m.type === 'turn_done' || m.type === 'error'),
        45_000,
      );
      expect(end).toMatchObject({ type: 'turn_done', stopped: false });
      expect(
        messages.filter((m) => m.type === 'tool_call').map((m) => (m.type === 'tool_call' ? m.name : '')),
      ).toEqual(['snapshot', 'click', 'text']);
      expect(
        messages.filter((m) => m.type === 'tool_result').every((m) => m.type === 'tool_result' && m.ok),
      ).toBe(true);
      // The panel gets the snapshot's size, not the page.
      expect(messages.find((m) => m.type === 'tool_result')).toMatchObject({
        text: expect.stringMatching(/^snapshot: \d+ characters$/),
      });
      const text = await runCli(env, ['text', '-s', session, '--selector', '#cart']);
      expect(text.stdout).toContain('Cart: 1 items');
      const { offered } = JSON.parse(readFileSync(record, 'utf8').trim()) as { offered: string[] };
      expect(offered).toContain('mcp__bproxy__click');
      expect(offered).not.toContain('mcp__bproxy__fill');
      // The MCP server used the session and left it open: it belongs to the user's shared tab.
      const status = JSON.parse((await runCli(env, ['debug', 'status'])).stdout) as {
        sessions: { session: string }[];
      };
      expect(status.sessions.map((s) => s.session)).toContain(session);
    } finally {
      await agent.close();
      client.close();
    }
  });
});
