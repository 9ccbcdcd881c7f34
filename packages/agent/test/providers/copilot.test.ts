/**
 * The Copilot provider through the real @github/copilot-sdk, which starts a scripted stand-in for the
 * Copilot runtime (helpers/fake-copilot-runtime.js) and talks JSON-RPC with it over stdio, as it does
 * with the real runtime. A faithful test against the real runtime needs a GitHub login and the
 * network; the stand-in speaks the SDK's protocol (version 3) instead.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CopilotProvider } from '../../src/providers/copilot';
import { AgentHarness, configure, scriptedDaemon, until } from '../helpers/agent-harness';

const RUNTIME = fileURLToPath(new URL('../helpers/fake-copilot-runtime.js', import.meta.url));
let dir: string;
let record: string;
let harness: AgentHarness | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bproxy-copilot-'));
  record = join(dir, 'record.jsonl');
});
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const clickAnswer = { navigated: false, url: 'http://shop.test/', title: 'Shop' };

function open(script: string, home = AgentHarness.tempHome(), daemon = scriptedDaemon(() => clickAnswer)) {
  configure(home, { provider: 'copilot', models: { fast: 'gpt-5-mini', strong: 'claude-sonnet-4.5' } });
  harness = new AgentHarness(home, daemon, {
    providers: {
      copilot: async (context) =>
        new CopilotProvider({
          gitHubToken: null,
          workingDirectory: context.paths.files,
          env: { PATH: process.env.PATH, FAKE_COPILOT_SCRIPT: script, FAKE_COPILOT_RECORD: record },
          logger: context.logger,
          runtimePath: RUNTIME,
        }),
    },
  });
  return { harness, daemon };
}

const calls = (): { method: string; params: Record<string, unknown> }[] =>
  readFileSync(record, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { method: string; params: Record<string, unknown> });

describe('the Copilot provider', { timeout: 30_000 }, () => {
  it('offers only our tools, runs a tool call through the daemon, and resumes the chat after a restart', async () => {
    const { harness: h, daemon } = open('click');
    h.send({ type: 'user', chatId: 'a', text: 'add the mug', session: 'abcdef' });
    expect(await h.turnEnd('a')).toMatchObject({ type: 'turn_done', stopped: false, model: 'gpt-5-mini' });
    expect(daemon.calls).toEqual([{ action: 'click', params: { target: 'el3' }, session: 'abcdef' }]);
    expect(h.text('a')).toMatch(/^Clicking\. Tool said: clicked el3/);
    expect(h.of('tool_result', 'a')).toMatchObject([{ ok: true, text: 'clicked el3' }]);
    const created = calls().find((c) => c.method === 'session.create')?.params;
    expect(created).toMatchObject({
      model: 'gpt-5-mini',
      availableTools: ['custom:*'],
      systemMessage: 'replace',
      skipPermission: true,
      requestPermission: true,
    });
    expect(created?.tools).toEqual(expect.arrayContaining(['click', 'snapshot', 'save_file', 'remember']));
    expect(created?.tools).not.toContain('session_resume');
    const sessionId = String(created?.sessionId);

    // The host restarts: a new service resumes Copilot's session by the id the chat kept.
    await h.service.close();
    const again = new AgentHarness(
      h.home,
      scriptedDaemon(() => clickAnswer),
      {
        providers: {
          copilot: async (context) =>
            new CopilotProvider({
              gitHubToken: null,
              workingDirectory: context.paths.files,
              env: { PATH: process.env.PATH, FAKE_COPILOT_SCRIPT: 'click', FAKE_COPILOT_RECORD: record },
              logger: context.logger,
              runtimePath: RUNTIME,
            }),
        },
      },
    );
    harness = again;
    again.send({ type: 'user', chatId: 'a', text: 'summarize what you did', session: 'abcdef' });
    expect(await again.turnEnd('a')).toMatchObject({ type: 'turn_done', model: 'claude-sonnet-4.5' });
    const resumed = calls().find((c) => c.method === 'session.resume')?.params;
    expect(resumed?.sessionId).toBe(sessionId);
    expect(calls().filter((c) => c.method === 'session.create')).toHaveLength(1);
  });

  it("refuses every permission request of Copilot's own, such as a shell command", async () => {
    const { harness: h, daemon } = open('permission');
    h.send({ type: 'user', chatId: 'a', text: 'read my ssh key', session: 'abcdef' });
    expect(await h.turnEnd('a')).toMatchObject({ type: 'turn_done', stopped: false });
    const answers = calls().filter((c) => c.method === 'session.permissions.handlePendingPermissionRequest');
    expect(answers).toEqual([
      {
        method: 'session.permissions.handlePendingPermissionRequest',
        params: { result: { kind: 'reject' } },
      },
    ]);
    expect(h.text('a')).toContain('Not allowed (reject).');
    expect(daemon.calls).toEqual([]);
  });

  it('ends the turn with MODEL_ERROR when Copilot reports a session error', async () => {
    const { harness: h } = open('error');
    h.send({ type: 'user', chatId: 'a', text: 'hi', session: 'abcdef' });
    const end = await h.turnEnd('a');
    expect(end).toMatchObject({ type: 'error', code: 'MODEL_ERROR' });
    expect(end.type === 'error' && end.message).toMatch(/quota/);
  });

  it('stops a turn during a tool call: Copilot is told to abort and the call gets a result', async () => {
    const daemon = scriptedDaemon(() => new Promise(() => {}));
    const { harness: h } = open('hang', undefined, daemon);
    h.send({ type: 'user', chatId: 'a', text: 'look', session: 'abcdef' });
    await until('the tool call', () => h.of('tool_call', 'a').length === 1, 15_000);
    h.send({ type: 'stop', chatId: 'a' });
    expect(await h.turnEnd('a')).toMatchObject({ type: 'turn_done', stopped: true });
    expect(h.of('tool_result', 'a')).toMatchObject([{ ok: false, text: 'stopped' }]);
    await until('the abort to reach Copilot', () => calls().some((c) => c.method === 'session.abort'));
  });
});
