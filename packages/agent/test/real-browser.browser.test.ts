/**
 * The agent end to end on real parts: a real daemon driving real headless Chromium through the CDP
 * driver, the real daemon client, real SDKs streaming from scripted model servers on 127.0.0.1. The
 * model finds a button by the handle a snapshot gave it, and the page really changes; a CAPTCHA met
 * mid-turn pauses the session and the chat says why; a tool the user switched off is never offered
 * and never runs.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentPaths } from '../src/paths';
import { AgentHarness, configure } from './helpers/agent-harness';
import { startModelServer, type ModelServer, type RecordedRequest } from './helpers/model-server';
import { startRealDaemon, type RealDaemon } from './helpers/real-daemon';

let daemon: RealDaemon;
beforeAll(async () => {
  daemon = await startRealDaemon();
}, 60_000);
afterAll(async () => {
  await daemon?.close();
}, 30_000);

/** The text of the newest tool result in a request, whatever its wire format. */
function lastToolText(request: RecordedRequest): string {
  const messages = request.body.messages as Record<string, unknown>[];
  const last = messages[messages.length - 1] as Record<string, unknown>;
  if (last.role === 'tool') return String(last.content);
  const blocks = (last.content as Record<string, unknown>[]).filter((b) => b.type === 'tool_result');
  const block = blocks[blocks.length - 1] as { content: { text: string }[] };
  return block.content[0]?.text ?? '';
}

function handleIn(text: string, pattern: RegExp): string {
  const line = text.split('\n').find((l) => pattern.test(l));
  const handle = line?.match(/\[((?:el|ln)\d+)\]/)?.[1];
  if (handle === undefined) throw new Error(`no handle for ${String(pattern)} in:\n${text}`);
  return handle;
}

async function pageText(session: string): Promise<string> {
  const answer = await daemon.client.call('text', {}, { session });
  if (!answer.ok) return `${answer.error.code}: ${answer.error.message}`;
  return String(answer.data.text);
}

let server: ModelServer | undefined;
let harness: AgentHarness | undefined;
async function openAgent(
  wire: 'openai' | 'anthropic',
  tools: Record<string, boolean> = {},
): Promise<AgentHarness> {
  const home = AgentHarness.tempHome();
  configure(home, {
    provider: wire,
    baseUrl: wire === 'openai' ? `${server?.baseUrl}/v1` : (server?.baseUrl ?? ''),
    key: 'sk-test-key',
    tools,
  });
  harness = new AgentHarness(home, daemon.client);
  return harness;
}

describe('the agent in a shared tab of a real browser', { timeout: 60_000 }, () => {
  it('adds a mug to the cart by the handle a snapshot gave it, and the cart count really changes', async () => {
    const session = await daemon.sharedTab('shop.html');
    expect(await pageText(session)).toContain('Cart: 0 items');
    server = await startModelServer(
      { text: 'Looking at the page.', calls: [{ name: 'snapshot', input: {} }] },
      (request) => ({
        calls: [{ name: 'click', input: { target: handleIn(lastToolText(request), /Add mug to cart/) } }],
      }),
      { calls: [{ name: 'text', input: { target: { selector: '#cart' } } }] },
      (request) => ({
        text: `The cart now says: ${/Cart: \d+ items/.exec(lastToolText(request))?.[0] ?? '?'}`,
      }),
    );
    const h = await openAgent('openai');
    h.send({ type: 'user', chatId: 'shop', text: 'add the blue mug to my cart', session });
    expect(await h.turnEnd('shop')).toMatchObject({ type: 'turn_done', stopped: false });
    expect(h.of('tool_call', 'shop').map((m) => m.name)).toEqual(['snapshot', 'click', 'text']);
    expect(h.of('tool_result', 'shop').map((m) => m.ok)).toEqual([true, true, true]);
    expect(h.text('shop')).toMatch(/The cart now says: Cart: 1 items$/);
    expect(await pageText(session)).toContain('Cart: 1 items');
    // The panel got the size of the snapshot, not the page.
    expect(h.of('tool_result', 'shop')[0]?.text).toMatch(/^snapshot: \d+ characters$/);
    expect(h.invalid).toEqual([]);
    await h.close();
    await server.close();
  });

  it('pauses on a CAPTCHA met mid-turn: the chat says why, and the session stays paused for the user', async () => {
    const session = await daemon.sharedTab('shop.html');
    server = await startModelServer(
      { calls: [{ name: 'snapshot', input: {} }] },
      (request) => ({
        calls: [{ name: 'click', input: { target: handleIn(lastToolText(request), /link "Checkout"/) } }],
      }),
      { calls: [{ name: 'snapshot', input: {} }] },
      { text: 'should not be asked' },
    );
    const h = await openAgent('anthropic');
    h.send({ type: 'user', chatId: 'pay', text: 'check out', session });
    const end = await h.turnEnd('pay');
    expect(end).toMatchObject({ type: 'error', chatId: 'pay', code: 'HUMAN_REQUIRED' });
    expect(end.type === 'error' && end.message).toMatch(
      /^The page needs you: .*reCAPTCHA.*resume the session/,
    );
    const results = h.of('tool_result', 'pay');
    expect(results.at(-1)).toMatchObject({ ok: false, text: expect.stringMatching(/^HUMAN_REQUIRED: /) });
    expect(server.requests.length).toBeLessThan(4);
    expect(await pageText(session)).toMatch(/^HUMAN_REQUIRED: /);
    h.send({ type: 'chat.history', id: 'h', chatId: 'pay' });
    const transcript = await h.answer('h');
    expect(transcript.type === 'chat.transcript' && transcript.entries.at(-1)).toMatchObject({
      role: 'error',
      text: expect.stringMatching(/^HUMAN_REQUIRED: The page needs you/),
    });
    await h.close();
    await server.close();
  });

  it('refuses a model answer that opens the provider keys through file://, and the key never reaches the model', async () => {
    const session = await daemon.sharedTab('shop.html');
    let keys = '';
    server = await startModelServer(
      () => ({ calls: [{ name: 'navigate', input: { url: pathToFileURL(keys).href } }] }),
      { calls: [{ name: 'text', input: {} }] },
      (request) => ({ text: `Read: ${lastToolText(request).slice(0, 200)}` }),
    );
    const h = await openAgent('openai');
    keys = agentPaths(h.home).keys;
    expect(readFileSync(keys, 'utf8')).toContain('sk-test-key');
    h.send({ type: 'user', chatId: 'keys', text: 'summarize this page', session });
    expect(await h.turnEnd('keys')).toMatchObject({ type: 'turn_done' });
    expect(h.of('tool_result', 'keys')).toMatchObject([
      {
        ok: false,
        text: expect.stringMatching(/^URL_NOT_ALLOWED: file: URLs \(local files\) are not allowed/),
      },
      { ok: true },
    ]);
    // What the model saw after the refusal is the page the user shared, never the file.
    const seen = server.requests.slice(1).map((r) => JSON.stringify(r.body.messages));
    for (const body of seen) expect(body).not.toContain('sk-test-key');
    expect(seen.at(-1)).toContain('Cart: 0 items');
    expect(await pageText(session)).toContain('Cart: 0 items');
    await h.close();
    await server.close();
  });

  it('never offers a tool the user switched off, and refuses it when the model calls it anyway', async () => {
    const session = await daemon.sharedTab('shop.html');
    server = await startModelServer(
      { calls: [{ name: 'navigate', input: { url: daemon.pagesUrl('counter.html') } }] },
      { text: 'I cannot navigate.' },
    );
    const h = await openAgent('openai', { navigate: false });
    h.send({ type: 'user', chatId: 'nav', text: 'go to the counter page', session });
    expect(await h.turnEnd('nav')).toMatchObject({ type: 'turn_done' });
    const offered = (server.requests[0]?.body.tools as { function: { name: string } }[]).map(
      (t) => t.function.name,
    );
    expect(offered).not.toContain('navigate');
    expect(offered).toContain('click');
    expect(h.of('tool_result', 'nav')).toMatchObject([
      { ok: false, text: 'UNKNOWN_ACTION: the user switched off navigate' },
    ]);
    expect(await pageText(session)).toContain('Cart: 0 items');
    await h.close();
    await server.close();
  });
});
