/**
 * The MCP server as its clients see it: the built `bproxy mcp` spawned as a real process and driven by
 * the SDK's Client over stdio, in a temporary BPROXY_HOME on a free port. Replies are flattened to
 * their text (and image blocks) so tests read like what a language model receives.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ROOT } from './paths';

export const CLI = join(ROOT, 'packages', 'cli', 'bin', 'bproxy.mjs');

export interface Reply {
  /** The reply's text without the untrusted-data fence lines (checked well-formed, see `unfence`). */
  text: string;
  /** The text as the model receives it, fence lines and all. */
  raw: string;
  /** The page text: what the fences hold, in order. */
  page: string;
  /** Whether the reply holds any fenced page text. */
  fenced: boolean;
  isError: boolean;
  images: { mimeType: string; data: string }[];
}

/**
 * Checks every untrusted-data fence of `raw` — an opening line and a closing line with the server's
 * nonce, in pairs, never nested, the nonce nowhere else — and returns the text without the fence
 * lines, and what the fences hold. A reply whose fences are not well-formed throws.
 */
export function unfence(raw: string, nonce: string): { text: string; page: string; fenced: boolean } {
  const open = new RegExp(`^<<untrusted-data ${nonce}>>(?: source=\\S.*)?$`);
  const close = `<<end untrusted-data ${nonce}>>`;
  const text: string[] = [];
  const page: string[] = [];
  let inside = false;
  let fenced = false;
  let numbered = '';
  for (const line of raw.split('\n')) {
    if (open.test(line)) {
      if (inside) throw new Error(`a fence opened inside a fence:\n${raw}`);
      inside = true;
      fenced = true;
      // A batch step's number stands on the line before its fence: it joins the step's first line.
      const number = text.at(-1);
      if (number !== undefined && /^\d+\.$/.test(number)) {
        text.pop();
        numbered = `${number} `;
      }
      continue;
    }
    if (line === close) {
      if (!inside) throw new Error(`a fence closed that was not open:\n${raw}`);
      inside = false;
      continue;
    }
    if (line.includes(nonce)) throw new Error(`the nonce outside a fence line:\n${raw}`);
    text.push(numbered + line);
    numbered = '';
    if (inside) page.push(line);
  }
  if (inside) throw new Error(`a fence left open:\n${raw}`);
  return { text: text.join('\n'), page: page.join('\n'), fenced };
}

export class McpClient {
  private constructor(
    readonly client: Client,
    readonly transport: StdioClientTransport,
    readonly stderr: () => string,
    /** The untrusted-data nonce the server's instructions name. */
    readonly nonce: string,
  ) {}

  /** `command`: the program and its first arguments (default: node on the clone's bproxy.mjs). */
  static async start(
    env: NodeJS.ProcessEnv,
    args: string[] = [],
    name = 'vitest',
    options: { command?: readonly [string, ...string[]]; cwd?: string } = {},
  ): Promise<McpClient> {
    const [program, ...first] = options.command ?? [process.execPath, CLI];
    const transport = new StdioClientTransport({
      command: program,
      args: [...first, 'mcp', ...args],
      env: { ...env } as Record<string, string>,
      stderr: 'pipe',
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const client = new Client({ name, version: '1.0.0' });
    await client.connect(transport);
    const nonce = /<<untrusted-data ([0-9a-f]{12})>>/.exec(client.getInstructions() ?? '')?.[1];
    if (nonce === undefined) throw new Error("the server's instructions name no untrusted-data fence");
    return new McpClient(client, transport, () => stderr, nonce);
  }

  get pid(): number | null {
    return this.transport.pid;
  }

  async call(name: string, args: Record<string, unknown> = {}): Promise<Reply> {
    const result = await this.client.callTool({ name, arguments: args }, undefined, { timeout: 90_000 });
    const content = (result.content ?? []) as {
      type: string;
      text?: string;
      data?: string;
      mimeType?: string;
    }[];
    const raw = content
      .filter((c) => c.type === 'text')
      .map((c) => c.text ?? '')
      .join('\n');
    return {
      raw,
      ...unfence(raw, this.nonce),
      isError: result.isError === true,
      images: content
        .filter((c) => c.type === 'image')
        .map((c) => ({ mimeType: c.mimeType ?? '', data: c.data ?? '' })),
    };
  }

  /** Calls a tool that must succeed and returns its text. */
  async ok(name: string, args: Record<string, unknown> = {}): Promise<string> {
    const reply = await this.call(name, args);
    if (reply.isError) throw new Error(`${name} failed: ${reply.text}`);
    return reply.text;
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => {});
  }
}

/** The handle a snapshot line gives an element: `button "Send" [el3]` → el3. */
export function handleOf(snapshot: string, pattern: RegExp): string {
  const line = snapshot.split('\n').find((l) => pattern.test(l));
  const handle = line?.match(/\[((?:el|ln)\d+)\]/)?.[1];
  if (handle === undefined) throw new Error(`no handle for ${String(pattern)} in:\n${snapshot}`);
  return handle;
}

/** Runs the real CLI (for `service stop` and looking at the daemon from outside). */
export function runCli(env: NodeJS.ProcessEnv, args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env, timeout: 30_000 }, (error, stdout) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout });
    });
  });
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
