/**
 * The Claude Code provider against a scripted `claude` on PATH that prints real stream-json: the
 * prompt goes to stdin (never argv), bproxy's tools come from `bproxy mcp --session ID` with Claude
 * Code's own tools switched off, the chat resumes Claude Code's session, and failures, a missing
 * executable and a stop end the turn clearly. (tests/e2e/agent-claude-code.test.ts runs the same fake
 * with the real MCP server, daemon and browser.)
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentHarness, configure, scriptedDaemon, until } from '../helpers/agent-harness';

const FAKE = fileURLToPath(new URL('../helpers/fake-claude.mjs', import.meta.url));
let bin: string;
let record: string;
let harness: AgentHarness | undefined;

beforeEach(() => {
  bin = mkdtempSync(join(tmpdir(), 'bproxy-fake-claude-'));
  record = join(bin, 'record.jsonl');
  writeFileSync(join(bin, 'claude'), `#!${process.execPath}\nimport(${JSON.stringify(FAKE)});\n`);
  chmodSync(join(bin, 'claude'), 0o755);
});
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  rmSync(bin, { recursive: true, force: true });
});

function open(
  script: string,
  path = `${bin}:${process.env.PATH ?? ''}`,
  tools: Record<string, boolean> = {},
) {
  const home = AgentHarness.tempHome();
  configure(home, { provider: 'claude-code', tools, models: { fast: 'sonnet', strong: 'opus' } });
  harness = new AgentHarness(
    home,
    scriptedDaemon(() => ({})),
    {
      env: { PATH: path, FAKE_CLAUDE_SCRIPT: script, FAKE_CLAUDE_RECORD: record },
      bproxyCommand: ['/opt/bproxy/bin/node', '/opt/bproxy/bproxy.mjs'],
    },
  );
  return harness;
}

const recorded = (): { argv: string[]; prompt: string; resume: string | null }[] =>
  readFileSync(record, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { argv: string[]; prompt: string; resume: string | null });

describe('the Claude Code provider', () => {
  it('sends the prompt on stdin, binds bproxy mcp to the session, switches off its own tools, and resumes its session', async () => {
    const h = open('echo', undefined, { click: false });
    h.send({ type: 'user', chatId: 'a', text: 'private words', session: 'abcdef' });
    expect(await h.turnEnd('a')).toMatchObject({ type: 'turn_done', stopped: false, model: 'sonnet' });
    expect(h.text('a')).toBe('You said: private words');
    h.send({ type: 'user', chatId: 'a', text: 'what now?', session: 'abcdef' });
    expect(await h.turnEnd('a', 2)).toMatchObject({ type: 'turn_done', model: 'opus' });

    const [first, second] = recorded();
    expect(first?.prompt).toBe('private words');
    expect(first?.argv.join(' ')).not.toContain('private words');
    const arg = (name: string) => first?.argv[(first?.argv.indexOf(name) ?? -2) + 1];
    expect(JSON.parse(arg('--mcp-config') ?? '')).toEqual({
      mcpServers: {
        bproxy: {
          command: '/opt/bproxy/bin/node',
          args: ['/opt/bproxy/bproxy.mjs', 'mcp', '--session', 'abcdef'],
        },
      },
    });
    expect(first?.argv).toContain('--strict-mcp-config');
    expect(arg('--tools')).toBe('');
    expect(arg('--allowedTools')?.split(',')).toContain('mcp__bproxy__snapshot');
    expect(arg('--allowedTools')?.split(',')).not.toContain('mcp__bproxy__click');
    expect(arg('--disallowedTools')?.split(',')).toEqual(
      expect.arrayContaining([
        'mcp__bproxy__click',
        'mcp__bproxy__session_resume',
        'mcp__bproxy__debug_last',
      ]),
    );
    expect(first?.resume).toBeNull();
    expect(second?.resume).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('ends the turn with MODEL_ERROR naming what claude said when it exits without a result', async () => {
    const h = open('crash');
    h.send({ type: 'user', chatId: 'a', text: 'hi', session: 'abcdef' });
    const end = await h.turnEnd('a');
    expect(end).toMatchObject({ type: 'error', code: 'MODEL_ERROR' });
    expect(end.type === 'error' && end.message).toMatch(
      /exited \(3\) without a result: fake claude: out of credits/,
    );
  });

  it('says AGENT_NOT_CONFIGURED when claude is not on PATH', async () => {
    const h = open('echo', '/nonexistent');
    h.send({ type: 'user', chatId: 'a', text: 'hi', session: 'abcdef' });
    expect(await h.turnEnd('a')).toMatchObject({ type: 'error', code: 'AGENT_NOT_CONFIGURED' });
  });

  it('stops a running claude: the process is killed and its open tool call gets a result', async () => {
    const h = open('hang');
    h.send({ type: 'user', chatId: 'a', text: 'look', session: 'abcdef' });
    await until('the tool call', () => h.of('tool_call', 'a').length === 1);
    h.send({ type: 'stop', chatId: 'a' });
    expect(await h.turnEnd('a')).toMatchObject({ type: 'turn_done', stopped: true });
    expect(h.of('tool_result', 'a')).toMatchObject([{ ok: false, text: 'stopped' }]);
  });
});
