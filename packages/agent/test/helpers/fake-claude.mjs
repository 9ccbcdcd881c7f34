// A scripted stand-in for the Claude Code CLI (`claude -p --output-format stream-json …`): it checks
// the flags the real one requires, reads the prompt from stdin, and prints real stream-json events
// (system init, stream_event text deltas, assistant messages with tool_use blocks, user messages with
// tool_result blocks, the final result). With FAKE_CLAUDE_SCRIPT=mcp-shop it really starts the MCP
// server of --mcp-config over stdio and calls its tools, as Claude Code does. It records what it was
// given (argv, the prompt, the tools it was offered) in FAKE_CLAUDE_RECORD.
import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';

const argv = process.argv.slice(2);
const flag = (name) => {
  const i = argv.indexOf(name);
  return i < 0 ? undefined : argv[i + 1];
};
const emit = (event) => process.stdout.write(`${JSON.stringify(event)}\n`);

if (!argv.includes('-p') || flag('--output-format') !== 'stream-json') {
  process.stderr.write('fake claude: expected -p --output-format stream-json\n');
  process.exit(2);
}
if (!argv.includes('--verbose')) {
  process.stderr.write('Error: When using --print, --output-format=stream-json requires --verbose\n');
  process.exit(1);
}

let prompt = '';
for await (const chunk of process.stdin) prompt += chunk;
const session = flag('--resume') ?? randomUUID();
const script = process.env.FAKE_CLAUDE_SCRIPT ?? 'echo';
const disallowed = new Set((flag('--disallowedTools') ?? '').split(',').filter(Boolean));
const record = (entry) => {
  if (process.env.FAKE_CLAUDE_RECORD)
    appendFileSync(process.env.FAKE_CLAUDE_RECORD, `${JSON.stringify(entry)}\n`);
};
const base = { session_id: session, parent_tool_use_id: null };
let n = 0;
const say = (text) => {
  const half = Math.ceil(text.length / 2);
  for (const part of [text.slice(0, half), text.slice(half)])
    emit({
      type: 'stream_event',
      event: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: part } },
      uuid: randomUUID(),
      ...base,
    });
};
const assistant = (content) =>
  emit({
    type: 'assistant',
    message: {
      id: `msg_${++n}`,
      type: 'message',
      role: 'assistant',
      model: flag('--model'),
      content,
      stop_reason: null,
    },
    ...base,
  });
const toolResult = (id, text, isError) =>
  emit({
    type: 'user',
    message: {
      role: 'user',
      content: [
        { tool_use_id: id, type: 'tool_result', content: [{ type: 'text', text }], is_error: isError },
      ],
    },
    ...base,
  });
const result = (text, isError = false) =>
  emit({
    type: 'result',
    subtype: isError ? 'error_during_execution' : 'success',
    is_error: isError,
    result: text,
    num_turns: n,
    duration_ms: 1,
    total_cost_usd: 0,
    ...base,
  });

if (script === 'echo') {
  record({ argv, prompt, resume: flag('--resume') ?? null });
  emit({ type: 'system', subtype: 'init', tools: [], mcp_servers: [], model: flag('--model'), ...base });
  say(`You said: ${prompt}`);
  assistant([{ type: 'text', text: `You said: ${prompt}` }]);
  result(`You said: ${prompt}`);
} else if (script === 'hang') {
  emit({ type: 'system', subtype: 'init', tools: [], mcp_servers: [], ...base });
  assistant([{ type: 'tool_use', id: 'toolu_hang', name: 'mcp__bproxy__snapshot', input: {} }]);
  setInterval(() => {}, 1_000);
} else if (script === 'crash') {
  process.stderr.write('fake claude: out of credits\n');
  process.exit(3);
} else if (script === 'mcp-shop') {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const config = JSON.parse(flag('--mcp-config') ?? '{}');
  const server = config.mcpServers.bproxy;
  const client = new Client({ name: 'claude-code', version: '2.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: server.command,
      args: server.args,
      env: process.env,
      stderr: 'ignore',
    }),
  );
  const offered = (await client.listTools()).tools
    .map((t) => `mcp__bproxy__${t.name}`)
    .filter((name) => !disallowed.has(name));
  record({ argv, prompt, offered });
  emit({
    type: 'system',
    subtype: 'init',
    tools: offered,
    mcp_servers: [{ name: 'bproxy', status: 'connected' }],
    model: flag('--model'),
    ...base,
  });
  const call = async (name, input) => {
    const id = `toolu_${++n}`;
    assistant([{ type: 'tool_use', id, name: `mcp__bproxy__${name}`, input }]);
    const reply = await client.callTool({ name, arguments: input });
    const text = reply.content.map((c) => c.text ?? '').join('\n');
    toolResult(id, text, reply.isError === true);
    return text;
  };
  say('Looking at the page. ');
  const snapshot = await call('snapshot', {});
  const handle = snapshot
    .split('\n')
    .find((l) => /Add mug to cart/.test(l))
    ?.match(/\[(el\d+)\]/)?.[1];
  await call('click', { target: handle });
  const cart = await call('text', { target: { selector: '#cart' } });
  say(`Done: ${cart}`);
  assistant([{ type: 'text', text: `Done: ${cart}` }]);
  result(`Done: ${cart}`);
  await client.close();
}
