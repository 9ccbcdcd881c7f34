/**
 * The chat rules of the service: the queue of 5 per chat, chats running concurrently, model routing,
 * settings (tool switches, `configured` without the key), persistence across a restart of the
 * service, the step cap and the tool deadline — against a scripted OpenAI-compatible server and a
 * scripted daemon stand-in.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { routeMessage } from '@bproxy/agent';
import { AgentHarness, configure, scriptedDaemon, until } from './helpers/agent-harness';
import { startModelServer, type ModelServer, type RecordedRequest } from './helpers/model-server';

const SESSION = 'abcdef';
const clickAnswer = { navigated: false, url: 'http://shop.test/', title: 'Shop' };
const toolNames = (r: RecordedRequest | undefined): string[] =>
  ((r?.body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);

let harness: AgentHarness | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await harness?.close();
  await server?.close();
  harness = undefined;
  server = undefined;
});

function open(
  extra: Parameters<typeof configure>[1] | null = null,
  limits = {},
  daemon = scriptedDaemon(() => clickAnswer),
) {
  const home = AgentHarness.tempHome();
  if (extra !== null) configure(home, extra);
  harness = new AgentHarness(home, daemon, { limits: { modelTimeoutMs: 10_000, ...limits } });
  return harness;
}

const openai = () => ({ provider: 'openai' as const, baseUrl: `${server?.baseUrl}/v1` });

describe('chat queue and concurrency', () => {
  it('queues at most 5 messages behind the running turn, refuses a sixth, and runs the rest in order', async () => {
    server = await startModelServer({ hang: true });
    const h = open(openai());
    h.send({ type: 'user', chatId: 'a', text: 'first', session: SESSION });
    await until('the first request', () => server?.requests.length === 1);
    for (let i = 1; i <= 6; i++) h.send({ type: 'user', chatId: 'a', text: `queued ${i}`, session: SESSION });
    const refused = h.of('error', 'a');
    expect(refused).toEqual([
      {
        type: 'error',
        chatId: 'a',
        code: 'CHAT_QUEUE_FULL',
        message: expect.stringMatching(/^5 messages already wait/),
      },
    ]);
    expect(h.of('chat.queue', 'a').at(-1)).toEqual({
      type: 'chat.queue',
      chatId: 'a',
      running: true,
      queued: 5,
    });

    for (let i = 1; i <= 5; i++) server.push({ text: `answer ${i}` });
    h.send({ type: 'stop', chatId: 'a' });
    // Stop ends the running turn and drops the queue.
    expect(await h.turnEnd('a', 2)).toMatchObject({ type: 'turn_done', stopped: true });
    expect(h.of('chat.queue', 'a').at(-1)).toEqual({
      type: 'chat.queue',
      chatId: 'a',
      running: false,
      queued: 0,
    });

    for (let i = 1; i <= 3; i++) h.send({ type: 'user', chatId: 'a', text: `again ${i}`, session: SESSION });
    await h.turnEnd('a', 5);
    const users = server.requests.slice(1).map((r) => {
      const messages = r.body.messages as { role: string; content: string }[];
      return messages.filter((m) => m.role === 'user').at(-1)?.content;
    });
    expect(users).toEqual(['again 1', 'again 2', 'again 3']);
  });

  it('says what Stop dropped, and keeps the dropped messages in the transcript under the stopped answer', async () => {
    server = await startModelServer({ hang: true, text: 'Working on it' });
    const h = open(openai());
    h.send({ type: 'user', chatId: 'a', text: 'first', session: SESSION });
    await until('the first delta', () => h.text('a') === 'Working on it');
    h.send({ type: 'user', chatId: 'a', text: 'waiting 1', session: SESSION });
    h.send({ type: 'user', chatId: 'a', text: 'waiting 2', session: SESSION });
    await until('both to wait', () => h.of('chat.queue', 'a').at(-1)?.queued === 2);
    h.send({ type: 'stop', chatId: 'a' });
    expect(await h.turnEnd('a')).toMatchObject({ type: 'turn_done', stopped: true });
    expect(h.of('chat.queue', 'a')).toContainEqual({
      type: 'chat.queue',
      chatId: 'a',
      running: false,
      queued: 0,
      dropped: 2,
    });
    // Written once the stopped turn has written its own: asked again until it is there.
    let entries: { role: string; text: string; dropped?: true }[] = [];
    for (let i = 0; entries.length === 0; i++) {
      if (i > 200) throw new Error('the dropped messages were never written');
      h.send({ type: 'chat.history', id: `h${i}`, chatId: 'a' });
      const history = await h.answer(`h${i}`);
      if (history.type === 'chat.transcript' && history.entries.some((e) => e.role === 'user' && e.dropped))
        entries = history.entries;
    }
    expect(entries.map((e) => [e.role, e.text, e.dropped ?? false])).toEqual([
      ['user', 'first', false],
      ['assistant', 'Working on it', false],
      ['user', 'waiting 1', true],
      ['user', 'waiting 2', true],
    ]);
    // What Stop dropped never reached the model.
    expect(server.requests).toHaveLength(1);
  });

  it('runs two chats at the same time: one waiting on its model does not hold up the other', async () => {
    server = await startModelServer({ hang: true }, { text: 'B done' });
    const h = open(openai());
    h.send({ type: 'user', chatId: 'a', text: 'slow one', session: SESSION });
    await until('chat a to reach the model', () => server?.requests.length === 1);
    h.send({ type: 'user', chatId: 'b', text: 'quick one', session: 'ghijkl' });
    expect(await h.turnEnd('b')).toMatchObject({ type: 'turn_done', stopped: false });
    expect(h.text('b')).toBe('B done');
    expect(h.of('turn_done', 'a')).toEqual([]);
    h.send({ type: 'stop', chatId: 'a' });
    expect(await h.turnEnd('a')).toMatchObject({ stopped: true });
  });
});

describe('model routing', () => {
  it.each([
    ['click @e24', 'fast'],
    ['go to hn', 'fast'],
    ['screenshot', 'fast'],
    ['navigate to example.com and fill the form', 'fast'],
    ['what does this page say?', 'strong'],
    ['summarize', 'strong'],
    ['find bugs', 'strong'],
    ['check for broken links', 'strong'],
    ['read the intro and the footer', 'strong'],
    ['navigate to the docs and explain the API', 'strong'],
  ] as const)('routes "%s" to the %s model', (text, tier) => {
    expect(routeMessage(text, undefined)).toBe(tier);
    expect(routeMessage(text, 'auto')).toBe(tier);
  });

  it('lets the message choose the model, and sends the chosen model name', async () => {
    server = await startModelServer({ text: 'a' }, { text: 'b' });
    const h = open(openai());
    h.send({ type: 'user', chatId: 'a', text: 'what is this?', session: SESSION, model: 'fast' });
    expect(await h.turnEnd('a')).toMatchObject({ model: 'model-fast' });
    h.send({ type: 'user', chatId: 'a', text: 'click it', session: SESSION, model: 'strong' });
    expect(await h.turnEnd('a', 2)).toMatchObject({ model: 'model-strong' });
    expect(server.requests.map((r) => r.body.model)).toEqual(['model-fast', 'model-strong']);
  });
});

describe('settings', () => {
  it('says configured false with no provider, and a turn then ends with AGENT_NOT_CONFIGURED', async () => {
    const h = open();
    h.send({ type: 'settings.get', id: 's1' });
    expect(await h.answer('s1')).toMatchObject({ type: 'settings', provider: null, configured: false });
    h.send({ type: 'user', chatId: 'a', text: 'hi', session: SESSION });
    expect(await h.turnEnd('a')).toMatchObject({ type: 'error', code: 'AGENT_NOT_CONFIGURED' });
  });

  it('reports configured without the key, and never the key itself', async () => {
    const h = open({ provider: 'anthropic', key: 'sk-ant-secret-value-123456' });
    h.send({ type: 'settings.get', id: 's1' });
    const settings = await h.answer('s1');
    expect(settings).toMatchObject({ type: 'settings', provider: 'anthropic', configured: true });
    expect(JSON.stringify(settings)).not.toContain('secret-value');
    expect(Object.keys(settings)).toEqual(['type', 'id', 'provider', 'models', 'tools', 'configured']);
  });

  it('never offers a switched-off tool, and refuses a call to it without reaching the daemon', async () => {
    server = await startModelServer({ calls: [{ name: 'click', input: { target: 'el1' } }] }, { text: 'ok' });
    const daemon = scriptedDaemon(() => clickAnswer);
    const h = open(openai(), {}, daemon);
    h.send({ type: 'settings.set', id: 's1', tools: { click: false, save_file: false } });
    const settings = await h.answer('s1');
    expect(settings.type === 'settings' && settings.tools).toMatchObject({
      click: false,
      save_file: false,
      fill: true,
    });
    h.send({ type: 'user', chatId: 'a', text: 'click el1', session: SESSION });
    await h.turnEnd('a');
    const offered = toolNames(server.requests[0]);
    expect(offered).not.toContain('click');
    expect(offered).not.toContain('save_file');
    expect(offered).toContain('fill');
    expect(daemon.calls).toEqual([]);
    expect(h.of('tool_result', 'a')).toMatchObject([
      { ok: false, text: 'UNKNOWN_ACTION: the user switched off click' },
    ]);
  });

  it('refuses a switch for a tool it does not know, naming it', async () => {
    const h = open();
    h.send({ type: 'settings.set', id: 's1', tools: { rm_rf: false } });
    expect(await h.answer('s1')).toEqual({
      type: 'error',
      id: 's1',
      code: 'BAD_REQUEST',
      message: 'tools: no tool named "rm_rf"',
    });
  });

  it('hides the tools that make no sense in a shared tab: session_resume and the daemon-wide debug tools', async () => {
    const h = open();
    h.send({ type: 'settings.get', id: 's1' });
    const settings = await h.answer('s1');
    const names = Object.keys(settings.type === 'settings' ? settings.tools : {});
    for (const hidden of ['session_resume', 'debug_last', 'debug_log']) expect(names).not.toContain(hidden);
    for (const kept of [
      'navigate',
      'snapshot',
      'click',
      'save_file',
      'read_file',
      'list_files',
      'remember',
      'recall',
      'forget',
    ])
      expect(names).toContain(kept);
  });
});

describe('limits', () => {
  it('ends a turn that reaches its step cap with TURN_LIMIT, every started call answered', async () => {
    const call = { calls: [{ name: 'click', input: { target: 'el1' } }] };
    server = await startModelServer(call, call, call);
    const h = open(openai(), { maxSteps: 3 });
    h.send({ type: 'user', chatId: 'a', text: 'click forever', session: SESSION });
    const end = await h.turnEnd('a');
    expect(end).toMatchObject({ type: 'error', code: 'TURN_LIMIT' });
    expect(h.of('tool_result', 'a')).toHaveLength(3);
  });

  it('gives a tool call that outlives its deadline a TIMEOUT result and goes on', async () => {
    server = await startModelServer(
      { calls: [{ name: 'click', input: { target: 'el1' } }] },
      { text: 'it timed out' },
    );
    const h = open(
      openai(),
      { toolDeadlineMs: 150 },
      scriptedDaemon(() => new Promise(() => {})),
    );
    h.send({ type: 'user', chatId: 'a', text: 'click', session: SESSION });
    expect(await h.turnEnd('a')).toMatchObject({ type: 'turn_done', stopped: false });
    expect(h.of('tool_result', 'a')).toMatchObject([
      { ok: false, text: 'TIMEOUT: click did not finish within 0 s' },
    ]);
  });
});

describe('persistence', () => {
  it('keeps a chat across a restart of the service: history returns the transcript and the model gets the conversation', async () => {
    server = await startModelServer(
      { calls: [{ name: 'click', input: { target: 'el1' } }] },
      { text: 'Clicked.' },
      { text: 'Yes, el1.' },
    );
    const h = open(openai());
    h.send({ type: 'user', chatId: 'a', text: 'click el1', session: SESSION });
    await h.turnEnd('a');
    await h.service.close();

    const again = new AgentHarness(
      h.home,
      scriptedDaemon(() => clickAnswer),
    );
    harness = again;
    again.send({ type: 'chat.history', id: 'h1', chatId: 'a' });
    const transcript = await again.answer('h1');
    expect(transcript.type === 'chat.transcript' && transcript.entries.map((e) => e.role)).toEqual([
      'user',
      'tool',
      'assistant',
    ]);
    expect(transcript).toMatchObject({
      running: false,
      entries: [{ text: 'click el1' }, { name: 'click', ok: true }, { text: 'Clicked.' }],
    });
    again.send({ type: 'user', chatId: 'a', text: 'which one did you click?', session: SESSION });
    await again.turnEnd('a');
    const roles = (server.requests[2]?.body.messages as { role: string }[]).map((m) => m.role);
    expect(roles).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
  });

  it('answers every message after close with SHUTTING_DOWN', async () => {
    const h = open();
    await h.service.close();
    h.send({ type: 'settings.get', id: 's1' });
    expect(await h.answer('s1')).toMatchObject({ type: 'error', code: 'SHUTTING_DOWN' });
  });
});
