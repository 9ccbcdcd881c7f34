/**
 * The MCP server against a real daemon in-process (buildServer on a loopback listener, port 0, no
 * browser) through the real daemon client, and a real MCP client on the SDK's in-memory transport:
 * what tools/list gives, how bad calls are answered, and the one session of a connection — created on
 * first use, its own per connection, forgotten when the daemon lost it, closed when the client goes.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DaemonClient } from '@bproxy/client';
import { buildServer, createLogger, type DaemonServer } from '@bproxy/daemon';
import { DEFAULT_EXTENSION_ID } from '@bproxy/protocol';
import { buildTools, groupsWithTools, TOOL_HINTS, TOOL_SPECS } from '@bproxy/tools';
import { BproxyMcpServer, type McpServerOptions } from '../src/index';
import { HUMAN_PACING_NOTICE } from '../src/server';

let root: string;
let daemon: DaemonServer;
let port: number;
const token = randomBytes(32).toString('hex');

/** The daemon's own view, for checking what the server did there. */
let admin: DaemonClient;

const newClient = (): DaemonClient =>
  new DaemonClient({ endpoint: { home: root, port, token }, keepAlive: true });

interface Connection {
  readonly server: BproxyMcpServer;
  readonly client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<{ text: string; isError: boolean }>;
}
const open: Connection[] = [];

/** One MCP connection: a server of its own on its own daemon client, and an MCP client named `name`. */
async function connect(options: Partial<McpServerOptions> = {}, name = 'test-agent'): Promise<Connection> {
  const server = new BproxyMcpServer({ client: newClient(), pacing: 'fast', ...options });
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await server.server.connect(serverEnd);
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(clientEnd);
  const connection: Connection = {
    server,
    client,
    async call(tool, args = {}) {
      const result = await client.callTool({ name: tool, arguments: args });
      const content = result.content as { type: string; text?: string }[];
      return {
        text: content.map((c) => (c.type === 'text' ? (c.text ?? '') : `[${c.type}]`)).join('\n'),
        isError: result.isError === true,
      };
    },
  };
  open.push(connection);
  return connection;
}

async function disconnect(connection: Connection): Promise<void> {
  await connection.client.close();
  await connection.server.shutdown();
}

interface SessionView {
  session: string;
  label?: string;
  pacing: string;
}

async function sessions(): Promise<SessionView[]> {
  const answer = await admin.call('session.list', {});
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.data.sessions as SessionView[];
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'bproxy-mcp-'));
  const { logger } = createLogger({ level: 'silent', destination: { write: () => {} } });
  daemon = await buildServer({
    port: 0,
    daemonToken: token,
    extensionIds: [DEFAULT_EXTENSION_ID],
    extensionTokens: { get: () => null, set: async () => {} },
    logger,
    tmpRoot: root,
  });
  port = await daemon.listen();
  admin = newClient();
});

afterEach(async () => {
  await Promise.all(open.splice(0).map(disconnect));
  for (const s of await sessions()) await admin.call('session.close', {}, { session: s.session });
});

afterAll(async () => {
  admin.close();
  await daemon.shutdown(2_000);
  rmSync(root, { recursive: true, force: true });
});

/** The pinned tools of these groups, in the pinned order. */
function pinnedOf(groups: readonly string[]): unknown[] {
  const pinned: unknown = JSON.parse(
    readFileSync(new URL('../../tools/test/tools-list.json', import.meta.url), 'utf8'),
  );
  if (!Array.isArray(pinned)) throw new Error('tools-list.json holds no list');
  const specs = new Map(TOOL_SPECS.map((spec) => [spec.name as string, spec.group as string]));
  return pinned.filter((tool: { name: string }) => groups.includes(specs.get(tool.name) ?? ''));
}

/** The bytes of a tools/list answer's list, as a client receives it. */
const bytesOf = (tools: unknown): number => Buffer.byteLength(JSON.stringify(tools));

/** The most the default tool list may weigh: every byte of it is read by the model on every call. */
const DEFAULT_LIST_BUDGET = 10_240;

describe('tools/list', () => {
  it("lists the core group's tools as they are pinned, byte for byte, then capabilities", async () => {
    const c = await connect();
    const { tools } = await c.client.listTools();
    expect(JSON.stringify(tools.slice(0, -1))).toBe(JSON.stringify(buildTools(new Set(['core']))));
    expect(JSON.stringify(tools.slice(0, -1))).toBe(JSON.stringify(pinnedOf(['core'])));
    expect(tools.at(-1)?.name).toBe('capabilities');
    expect(tools.map((t) => t.name)).not.toContain('debug_last');
  });

  it(`keeps the default tool list within ${DEFAULT_LIST_BUDGET} bytes`, async () => {
    const c = await connect();
    const { tools } = await c.client.listTools();
    expect(bytesOf(tools)).toBeLessThanOrEqual(DEFAULT_LIST_BUDGET);
  });

  it('offers the groups it was started with (--caps), and every tool with all of them, without capabilities', async () => {
    const debug = await connect({ groups: new Set(['core', 'debug']) });
    const names = (await debug.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('debug_last');
    const all = await connect({ groups: new Set(groupsWithTools()) });
    const { tools } = await all.client.listTools();
    expect(JSON.stringify(tools)).toBe(JSON.stringify(buildTools()));
  });

  it('opens a group at run time: the tool list changes, the client is told, and the new tools answer', async () => {
    const c = await connect();
    const changed = new Promise<void>((resolve) =>
      c.client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    expect(await c.call('debug_last', { limit: 1 })).toEqual({
      isError: true,
      text: 'UNKNOWN_ACTION: debug_last is in the debug group, which is not open\nWhat to do: Call capabilities with open ["debug"] first',
    });
    const opened = await c.call('capabilities', { open: ['debug'] });
    expect(opened.isError).toBe(false);
    expect(opened.text).toMatch(/^opened debug: debug_last, debug_log, console\n/);
    await changed;
    const { tools } = await c.client.listTools();
    const listed = tools.filter((t) => t.name !== 'capabilities');
    expect(JSON.stringify(listed)).toBe(JSON.stringify(pinnedOf(['core', 'debug'])));
    // capabilities, while other groups are closed, no longer offers the one just opened.
    expect(JSON.stringify(tools.find((t) => t.name === 'capabilities') ?? {})).not.toContain('"debug"');
    expect(await c.call('debug_last', { limit: 1 })).toMatchObject({ isError: false });
  });

  it('says who it is and how to work with it', async () => {
    const c = await connect();
    expect(c.client.getServerVersion()?.name).toBe('bproxy');
    expect(c.client.getInstructions()).toMatch(/^Drive a real browser\. Workflow: navigate/);
    expect(c.client.getInstructions()).toContain('call capabilities with open [group]');
    expect(c.client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
  });
});

describe('batch', () => {
  it("runs tools in order in the connection's session and answers each step's own reply, numbered", async () => {
    const c = await connect();
    expect(
      await c.call('batch', { steps: [{ action: 'tab_list' }, { action: 'tab_list', params: {} }] }),
    ).toEqual({
      isError: false,
      text: '1. no tabs; call tab_open\n2. no tabs; call tab_open',
    });
    expect(await sessions()).toHaveLength(1);
  });

  it('stops at the failing step, named by its tool', async () => {
    const c = await connect();
    const reply = await c.call('batch', {
      steps: [
        { action: 'tab_list' },
        { action: 'tab_select', params: { tab: 't9' } },
        { action: 'tab_list' },
      ],
    });
    expect(reply.isError).toBe(true);
    expect(reply.text).toMatch(/^TAB_[A-Z_]+: step 2 \(tab_select\): /);
  });

  it('checks every step as its tool would be, before any runs: unknown tools, hidden params, closed groups', async () => {
    const c = await connect();
    expect(await c.call('batch', { steps: [{ action: 'teleport' }] })).toMatchObject({
      isError: true,
      text: /^BAD_REQUEST: step 1: no tool named "teleport"/,
    });
    expect(
      await c.call('batch', {
        steps: [{ action: 'tab_list' }, { action: 'tab_open', params: { browser: 'x' } }],
      }),
    ).toMatchObject({
      isError: true,
      text: /^BAD_REQUEST: step 2 \(tab_open\): tab_open does not take browser/,
    });
    expect(await c.call('batch', { steps: [{ action: 'debug_last' }] })).toMatchObject({
      isError: true,
      text: /^UNKNOWN_ACTION: debug_last is in the debug group/,
    });
    expect(await c.call('batch', { steps: [{ action: 'batch', params: { steps: [] } }] })).toMatchObject({
      isError: true,
    });
    expect(await sessions()).toEqual([]);
  });

  it('carries the tools of a group opened at run time, for clients that keep their first tool list', async () => {
    const c = await connect();
    await c.call('capabilities', { open: ['debug'] });
    const reply = await c.call('batch', { steps: [{ action: 'debug_last', params: { limit: 1 } }] });
    expect(reply.isError).toBe(false);
    // The step's result (JSON) is fenced as page data, its number before the fence.
    expect(reply.text).toMatch(/^1\.\n<<untrusted-data [0-9a-f]{12}>>\n\{/);
  });
});

describe('bad calls', () => {
  it('answers an unknown tool and bad arguments as errors that say what to do, creating no session', async () => {
    const c = await connect();
    expect(await c.call('teleport')).toEqual({
      isError: true,
      text: 'UNKNOWN_ACTION: no tool named "teleport"\nWhat to do: Call tools/list for the tools of this server',
    });
    const missing = await c.call('click', {});
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/^BAD_REQUEST: target: /);
    expect(missing.text).toContain('What to do: Fix the argument named here and call again');
    expect(await c.call('tab_open', { url: 'https://a.test/', browser: 'x' })).toEqual({
      isError: true,
      text: 'BAD_REQUEST: tab_open does not take browser\nWhat to do: Remove it; the server sets it itself',
    });
    expect(await c.call('tab_select', {})).toMatchObject({
      isError: true,
      text: /^BAD_REQUEST: tab_select needs tab/,
    });
    expect(await c.call('navigate', { url: 'https://a.test/', session: 's_x' })).toMatchObject({
      isError: true,
      text: /^BAD_REQUEST: arguments: unknown field\(s\) "session"/,
    });
    expect(await sessions()).toEqual([]);
  });

  it("answers the daemon's own refusal with the tools' hint", async () => {
    const c = await connect();
    // No browser here: navigate, which opens the session's first tab, has none to open it in.
    expect(await c.call('navigate', { url: 'https://a.test/' })).toEqual({
      isError: true,
      text: 'NO_EXTENSION: no browser is connected: pair the extension or start the daemon with a browser\nWhat to do: No browser is available: start the daemon with a browser, or pair the extension',
    });
    // A tab that is not the session's: the daemon's code, said with the tools' words.
    const other = await c.call('tab_select', { tab: 't9' });
    expect(other.isError).toBe(true);
    const [, code, hint] = /^([A-Z_]+): [^\n]*\nWhat to do: (.*)$/.exec(other.text) ?? [];
    expect(code).toMatch(/^TAB_/);
    expect(hint).toBe(TOOL_HINTS[code as keyof typeof TOOL_HINTS]);
  });
});

describe("a connection's session", () => {
  it('is created on the first call that needs it, labelled after the client, with the server pacing', async () => {
    const c = await connect({ pacing: 'fast', groups: new Set(['core', 'debug']) }, 'claude-code');
    expect(await c.call('debug_last', { limit: 1 })).toMatchObject({ isError: false });
    expect(await sessions()).toEqual([]);
    expect(await c.call('tab_list')).toEqual({ isError: false, text: 'no tabs; call tab_open' });
    expect(await c.call('tab_list')).toEqual({ isError: false, text: 'no tabs; call tab_open' });
    const created = await sessions();
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ label: 'mcp claude-code', pacing: 'fast' });
  });

  it('is one per connection, also when the first calls come at once', async () => {
    const a = await connect();
    const b = await connect();
    await Promise.all([a.call('tab_list'), a.call('tab_list'), a.call('tab_list'), b.call('tab_list')]);
    expect(await sessions()).toHaveLength(2);
  });

  it('is closed when the connection ends', async () => {
    const c = await connect();
    await c.call('tab_list');
    expect(await sessions()).toHaveLength(1);
    open.splice(open.indexOf(c), 1);
    await disconnect(c);
    expect(await sessions()).toEqual([]);
  });

  it('is forgotten when the daemon lost it, and the next call starts a new one', async () => {
    const c = await connect();
    await c.call('tab_list');
    const [first] = await sessions();
    await admin.call('session.close', {}, { session: String(first?.session) });
    const lost = await c.call('tab_list');
    expect(lost.isError).toBe(true);
    expect(lost.text).toMatch(/^SESSION_NOT_FOUND: .*\nWhat to do: Your tabs are gone/);
    expect(await c.call('tab_list')).toEqual({ isError: false, text: 'no tabs; call tab_open' });
    const now = await sessions();
    expect(now).toHaveLength(1);
    expect(now[0]?.session).not.toBe(first?.session);
  });

  it('is the one given (--session), used for every call and never closed by the server', async () => {
    const created = await admin.call('session.create', { label: 'shared tab', pacing: 'fast' });
    if (!created.ok) throw new Error(created.error.message);
    const session = String(created.data.session);
    const c = await connect({ session, pacing: 'human' });
    // A given session keeps the pacing its creator chose: no notice guesses it.
    expect(await c.call('tab_list')).toEqual({ isError: false, text: 'no tabs; call tab_open' });
    open.splice(open.indexOf(c), 1);
    await disconnect(c);
    expect((await sessions()).map((s) => s.session)).toEqual([session]);
  });

  it('says once, with the first reply, that it is paced like a person', async () => {
    const c = await connect({ pacing: 'human' });
    const first = await c.call('tab_list');
    expect(first.text).toBe(`no tabs; call tab_open\n${HUMAN_PACING_NOTICE}`);
    expect((await c.call('tab_list')).text).toBe('no tabs; call tab_open');
    expect((await sessions())[0]?.pacing).toBe('human');
  });

  it('answers a daemon that is gone with an error reply, not a crash', async () => {
    const gone = new BproxyMcpServer({
      client: new DaemonClient({ endpoint: { home: root, port: 1, token }, keepAlive: true }),
      pacing: 'fast',
    });
    const reply = await gone.callTool('tab_list', {});
    expect(reply.isError).toBe(true);
    const text = reply.content[0]?.type === 'text' ? reply.content[0].text : '';
    expect(text).toMatch(/^(DAEMON_UNREACHABLE|NO_DAEMON): /);
    await gone.shutdown();
  });
});
