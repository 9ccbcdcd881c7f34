/**
 * A process that binds the daemon's port after the daemon stopped, against the long-lived clients
 * that remembered that port: `bproxy mcp` (the built CLI as a real process, driven by the MCP SDK's
 * client) and the in-browser agent (the built native host as a real process, the test playing the
 * browser on its port, a scripted model server asking for the tool calls). The impostor would forge a
 * page's text; it must receive no Authorization header and no request — only the proof's challenge —
 * its forgery must never reach the model, and the daemon started again on another port is used.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_EXTENSION_ID } from '@bproxy/protocol';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { removeProfile } from '../kit/chromium';
import { startModelServer, type ModelServer } from '../../packages/agent/test/helpers/model-server';
import {
  FORGED_TEXT,
  revealed,
  startImpostor,
  type Impostor,
} from '../../packages/client/test/helpers/impostor';
import { HELLO, browserEnd } from '../../packages/native-host/test/helpers/port';
import { ROOT } from '../kit/paths';
import { McpClient, runCli } from '../kit/mcp';

const homes: string[] = [];
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  for (const home of homes) await removeProfile(home);
});

function envFor(prefix: string): NodeJS.ProcessEnv {
  const home = mkdtempSync(join(tmpdir(), prefix));
  homes.push(home);
  // No browser: the daemon answers as it does without a tab; what matters is who answers.
  return {
    ...process.env,
    HOME: home,
    BPROXY_HOME: home,
    BPROXY_PORT: '0',
    BPROXY_BROWSER: 'none',
    BPROXY_SESSION: '',
  };
}

function stateOf(env: NodeJS.ProcessEnv): { port: number; token: string } {
  const home = env.BPROXY_HOME ?? '';
  return {
    port: Number(readFileSync(join(home, 'port'), 'utf8').trim()),
    token: readFileSync(join(home, 'token'), 'utf8').trim(),
  };
}

/** Stops the daemon as a person would, and lets the impostor take its port. */
async function impostorAfterStop(
  env: NodeJS.ProcessEnv,
): Promise<{ impostor: Impostor; old: { port: number; token: string } }> {
  const old = stateOf(env);
  expect((await runCli(env, ['service', 'stop'])).code).toBe(0);
  const impostor = await startImpostor(old.port);
  cleanups.push(() => impostor.close());
  return { impostor, old };
}

describe('a process on the port of a stopped daemon, against long-lived clients', () => {
  it('bproxy mcp sends it no token and no request, never returns its forgery, and uses the daemon it starts again', async () => {
    const env = envFor('bproxy-e2e-mcp-impostor-');
    const mcp = await McpClient.start(env, ['--pacing', 'fast']);
    cleanups.push(async () => {
      await mcp.close();
      await runCli(env, ['service', 'stop']);
    });
    // The first call starts the daemon; the server remembers its port.
    const first = await mcp.call('text');
    expect(first.text).toMatch(/^NO_EXTENSION: no browser is connected/);

    const { impostor, old } = await impostorAfterStop(env);
    const fill = await mcp.call('fill', { target: 'el1', value: 'hunter2-typed-password' });
    const text = await mcp.call('text');

    expect(revealed(impostor, old.token)).toEqual([]);
    expect(JSON.stringify(impostor.received)).not.toContain('hunter2');
    for (const reply of [fill, text]) expect(reply.text).not.toContain(FORGED_TEXT);
    expect(text.text).toMatch(/^NO_EXTENSION: no browser is connected/);
    // A new daemon, on another port, answered.
    const now = stateOf(env);
    expect(now.port).not.toBe(old.port);
    expect(now.token).not.toBe(old.token);
    expect(JSON.parse((await runCli(env, ['service', 'status'])).stdout)).toMatchObject({
      running: true,
      port: now.port,
    });
  }, 60_000);

  it('the in-browser agent sends it no token and no request, its model never sees the forgery, and the daemon started again is used', async () => {
    const env = envFor('bproxy-e2e-agent-impostor-');
    const model: ModelServer = await startModelServer();
    cleanups.push(() => model.close());
    const configured = await new Promise<number | null>((resolve) => {
      const child = spawn(
        process.execPath,
        [
          join(ROOT, 'packages', 'cli', 'bin', 'bproxy.mjs'),
          'agent',
          'config',
          '--provider',
          'openai',
          '--base-url',
          `${model.baseUrl}/v1`,
          '--fast',
          'model-fast',
          '--strong',
          'model-fast',
          '--key-env',
          'TEST_MODEL_KEY',
        ],
        { env: { ...env, TEST_MODEL_KEY: 'sk-test-key' }, stdio: 'ignore' },
      );
      child.on('exit', resolve);
    });
    expect(configured).toBe(0);

    const host = spawn(
      process.execPath,
      [
        join(ROOT, 'packages', 'cli', 'dist', 'native-host.mjs'),
        `chrome-extension://${DEFAULT_EXTENSION_ID}/`,
      ],
      { env, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    host.stdin.on('error', () => undefined);
    const hostExit = new Promise((resolve) => host.once('exit', resolve));
    cleanups.push(async () => {
      host.stdin.end();
      await hostExit;
      await runCli(env, ['service', 'stop']);
    });
    const browser = browserEnd(host.stdin, host.stdout);
    browser.send(HELLO);

    const turn = async (chatId: string, calls: { name: string; input: Record<string, unknown> }[]) => {
      const asked = model.requests.length;
      model.push({ calls: calls.map((c, i) => ({ ...c, id: `call_${chatId}_${i}` })) }, { text: 'done' });
      browser.send({ type: 'user', chatId, text: 'read the page', session: 'abcdef' });
      await browser.next((m) => m.type === 'turn_done' && m.chatId === chatId, 30_000);
      return model.requests.slice(asked);
    };

    // The first turn starts the daemon; the agent's client remembers its port.
    await turn('c1', [{ name: 'text', input: {} }]);
    const { impostor, old } = await impostorAfterStop(env);
    const requests = await turn('c2', [
      { name: 'fill', input: { target: 'el1', value: 'hunter2-typed-password' } },
      { name: 'text', input: {} },
    ]);

    expect(revealed(impostor, old.token)).toEqual([]);
    expect(JSON.stringify(impostor.received)).not.toContain('hunter2');
    // The model's next request carries the tool results: none is the forgery.
    const results = JSON.stringify(requests.map((r) => r.body.messages));
    expect(results).toContain('call_c2_1');
    expect(results).not.toContain(FORGED_TEXT);
    // …but the real daemon's answers: the session the agent held is gone with the old daemon.
    expect(results.match(/SESSION_NOT_FOUND: no session abcdef/g)).toHaveLength(2);
    const now = stateOf(env);
    expect(now.port).not.toBe(old.port);
    expect(JSON.parse((await runCli(env, ['service', 'status'])).stdout)).toMatchObject({
      running: true,
      port: now.port,
    });
  }, 90_000);
});
