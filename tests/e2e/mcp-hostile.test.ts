/**
 * The built `bproxy mcp` as a real process, sent what no SDK client would write: JSON-RPC lines whose
 * tool arguments — or the request itself — hold values nested 100,000 deep, 100,000 wide or megabytes
 * long. Written by hand on its stdin (a client's JSON.stringify could not even serialize them). Every
 * request with an id is answered, a tool call with a catalogue code, and the server serves the next.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '@bproxy/protocol';
import { hostileJson, hostileValues } from '../fixtures/hostile-json';
import { removeProfile, settlesWithin } from '../kit/chromium';
import { CLI } from '../kit/mcp';

interface RpcAnswer {
  id?: unknown;
  result?: { isError?: boolean; content?: { type: string; text?: string }[]; tools?: unknown[] };
  error?: { code: number; message: string };
}

let home = '';
let child: ChildProcessWithoutNullStreams | undefined;
const answers = new Map<number, RpcAnswer>();
let stderr = '';
let nextId = 1;

function send(line: string): void {
  child?.stdin.write(`${line}\n`);
}

const waiting = new Map<number, (answer: RpcAnswer) => void>();

/** The answer to request `id`, as soon as its line arrives (an error answer if the server exits first). */
function answerTo(id: number): Promise<RpcAnswer> {
  const known = answers.get(id);
  if (known !== undefined) return Promise.resolve(known);
  if (child?.exitCode !== null) return Promise.reject(new Error(`the server exited: ${stderr}`));
  return new Promise((resolve) => waiting.set(id, resolve));
}

/** A request with the hostile JSON `raw` spliced in as its params (given as JSON text). */
function request(method: string, paramsJson: string): number {
  const id = nextId++;
  send(`{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)},"params":${paramsJson}}`);
  return id;
}

/** The server still lists its tools. */
async function alive(): Promise<void> {
  const answer = await answerTo(request('tools/list', '{}'));
  expect(answer.result?.tools?.length ?? 0).toBeGreaterThan(10);
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'bproxy-e2e-mcp-hostile-'));
  child = spawn(process.execPath, [CLI, 'mcp'], {
    env: { ...process.env, BPROXY_HOME: home, HOME: home, BPROXY_PORT: '0', BPROXY_SESSION: '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf('\n');
      const message = JSON.parse(line) as RpcAnswer;
      if (typeof message.id !== 'number') continue;
      answers.set(message.id, message);
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  // A server that dies fails what waits for it at once, naming what it said.
  child.once('exit', (code) => {
    for (const [id, resolve] of waiting)
      resolve({ id, error: { code: -1, message: `exited ${code}: ${stderr}` } });
    waiting.clear();
  });
  const init = request(
    'initialize',
    JSON.stringify({
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'hostile', version: '1.0.0' },
    }),
  );
  await answerTo(init);
  send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
}, 30_000);

afterAll(async () => {
  const running = child;
  if (running !== undefined && running.exitCode === null) {
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.stdin.end();
    if (!(await settlesWithin(exited, 10_000))) running.kill('SIGKILL');
  }
  await removeProfile(home);
}, 30_000);

const CODES = new Set(Object.keys(ERROR_CATALOGUE));

/** A tool call answered as a tool error whose first line names a catalogue code. */
function expectToolRefusal(answer: RpcAnswer): void {
  expect(answer.error).toBeUndefined();
  expect(answer.result?.isError).toBe(true);
  const text = answer.result?.content?.[0]?.text ?? '';
  const code = /^([A-Z_]+):/.exec(text)?.[1] ?? '';
  expect(CODES.has(code), text.slice(0, 200)).toBe(true);
  expect(code).not.toBe('INTERNAL_ERROR');
  expect(text.length).toBeLessThan(4_000);
}

describe('hostile input to the MCP server', () => {
  it('answers tool arguments 100,000 deep, wide or huge with a catalogue code, and serves the next', async () => {
    const limit = 4 * 1024 * 1024;
    for (const { json } of hostileValues(limit)) {
      for (const [tool, args] of [
        ['navigate', `{"url":${json}}`],
        ['click', `{"target":${json}}`],
        ['fill', `{"target":"el1","value":${json}}`],
        ['snapshot', `{"extra":${json}}`],
      ] as const) {
        const answer = await answerTo(request('tools/call', `{"name":"${tool}","arguments":${args}}`));
        expectToolRefusal(answer);
        await alive();
      }
      // The request itself: its arguments, its name, its params. What the SDK cannot read as a request it
      // may leave unanswered (it has no id it trusts); the server goes on either way.
      for (const params of [`{"name":"navigate","arguments":${json}}`, `{"name":${json}}`, json]) {
        request('tools/call', params);
        await alive();
      }
    }
    // Every generated call is one the arguments check refuses, so none reaches a daemon or a browser.
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('target', 'button', 'extra'),
        hostileJson(1024 * 1024),
        async (field, json) => {
          fc.pre(!(field === 'button' && ['"left"', '"middle"', '"right"'].includes(json)));
          const args =
            field === 'target' ? `{"target":${json}}` : `{"target":"el1",${JSON.stringify(field)}:${json}}`;
          expectToolRefusal(await answerTo(request('tools/call', `{"name":"click","arguments":${args}}`)));
        },
      ),
      { numRuns: 30 },
    );
    await alive();
    expect(child?.exitCode).toBeNull();
    expect(stderr).not.toMatch(/RangeError|Maximum call stack/);
  }, 120_000);
});
