/**
 * `npm run bench:agent` — the in-browser agent loop's own cost per tool call. A scripted model server
 * (OpenAI chat-completions SSE on 127.0.0.1, answering at once) asks for one click per response; the
 * agent streams it through the real `openai` SDK, runs the click through the daemon client on the
 * daemon's embedded headless Chromium (fast pacing), and sends the result back. Measured per click:
 * from the moment the model server finished sending the tool call to the moment the request carrying
 * its result arrived — everything but the model's own time. For comparison, the same click sent
 * straight through the daemon client. A benchmark, not a test: it prints figures.
 * Options: --turns N (default 10), --clicks N per turn (default 20).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DaemonClient } from '@bproxy/client';
import { createAgentService, type AgentService } from '@bproxy/agent';
import { agentPaths, writeConfigFile } from '@bproxy/agent/config';
import { ExtensionToHostSchema, type HostToExtension } from '@bproxy/protocol';
import { startModelServer } from '../packages/agent/test/helpers/model-server';
import { NODE_CLI, cleanupOnInterrupt, load, mustRun, pct, servePages, summary } from './cli-common';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
};
const TURNS = arg('--turns', 10);
const CLICKS = arg('--clicks', 20);
const TARGET_MS = 15;

console.log(`bproxy agent-loop benchmark — load average at start ${load()}`);
const pages = await servePages();
const home = mkdtempSync(join(tmpdir(), 'bproxy-bench-agent-'));
const env = { ...process.env, BPROXY_HOME: home, BPROXY_PORT: '0', BPROXY_SESSION: '' };
let agent: AgentService | undefined;
let client: DaemonClient | undefined;
const model = await startModelServer();
async function cleanup(): Promise<void> {
  await agent?.close();
  client?.close();
  await model.close();
  await mustRun(process.execPath, [NODE_CLI, 'service', 'stop'], env).catch(() => undefined);
  await pages.close();
  rmSync(home, { recursive: true, force: true });
}
cleanupOnInterrupt(cleanup);

try {
  await mustRun(process.execPath, [NODE_CLI, 'service', 'start'], env);
  client = new DaemonClient({ env, keepAlive: true });
  const created = await client.call('session.create', { label: 'bench agent', pacing: 'fast' });
  if (!created.ok) throw new Error(created.error.message);
  const session = String(created.data.session);
  const opened = await client.call('tab.open', { url: pages.counterUrl }, { session, timeoutMs: 60_000 });
  if (!opened.ok) throw new Error(opened.error.message);

  // Straight through the daemon client: what one click costs without the agent.
  const direct: number[] = [];
  for (let i = 0; i < 100; i++) {
    const started = performance.now();
    const answer = await client.call('click', { target: { selector: '#inc' } }, { session });
    if (!answer.ok) throw new Error(answer.error.message);
    if (i >= 10) direct.push(performance.now() - started);
  }

  writeConfigFile(agentPaths(home), {
    version: 1,
    provider: 'openai',
    models: { fast: 'bench', strong: 'bench' },
    baseUrl: `${model.baseUrl}/v1`,
    tools: {},
  });
  agent = createAgentService({ home, client, limits: { maxSteps: CLICKS + 2 } });
  const loop: number[] = [];
  for (let turn = 0; turn < TURNS; turn++) {
    for (let i = 0; i < CLICKS; i++)
      model.push({ calls: [{ name: 'click', input: { target: { selector: '#inc' } } }] });
    model.push({ text: 'done' });
    const before = model.requests.length;
    const ended = new Promise<HostToExtension>((resolve) => {
      const message = ExtensionToHostSchema.parse({
        type: 'user',
        chatId: `bench${turn}`,
        text: 'click',
        session,
      });
      if (message.type !== 'user') throw new Error('unreachable');
      agent?.handle(message, (m) => {
        if (m.type === 'turn_done' || m.type === 'error') resolve(m);
      });
    });
    const end = await ended;
    if (end.type === 'error') throw new Error(`${end.code}: ${end.message}`);
    // From the end of each tool-call response to the arrival of the request carrying its result.
    const requests = model.requests.slice(before);
    for (let i = 1; i < requests.length; i++) {
      const sent = requests[i - 1]?.answeredAt;
      const back = requests[i]?.at;
      if (sent !== undefined && back !== undefined && (turn > 0 || i > 2)) loop.push(back - sent);
    }
  }

  const p50 = pct(loop, 50);
  console.log(`\nclick through the daemon client alone:              ${summary(direct)}`);
  console.log(`tool call → result back at the model (agent loop):  ${summary(loop)}`);
  console.log(`the agent's share at p50 (loop − direct):           ${(p50 - pct(direct, 50)).toFixed(1)} ms`);
  console.log(
    `target p50 ≤ ${TARGET_MS} ms: ${p50 <= TARGET_MS ? 'met' : 'missed'} (${p50.toFixed(1)} ms); load ${load()}`,
  );
} finally {
  await cleanup();
}
