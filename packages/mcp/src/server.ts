/**
 * The stdio MCP server, an adapter on the tool catalogue (@bproxy/tools) and the daemon client:
 * tools/list answers the catalogue, tools/call checks the arguments, runs the action in this
 * connection's session and turns the answer into the catalogue's short reply or an isError result.
 * The process lives as long as its client: when stdin ends (or a signal comes) the session and its
 * tabs are closed and the process exits 0.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { DaemonClient } from '@bproxy/client';
import { BPROXY_VERSION } from '@bproxy/protocol';
import {
  TOOLS_BY_NAME,
  buildTools,
  checkToolArgs,
  errorReply,
  localError,
  successReply,
  toolTimeoutMs,
  type ToolReply,
} from '@bproxy/tools';
import { ConnectionSession, SessionCreateError, type Pacing } from './connection-session';
import { DaemonLink } from './daemon-link';

export interface McpServerOptions {
  /** The daemon of BPROXY_HOME: a client that starts it when none runs. */
  readonly client: DaemonClient;
  readonly pacing: Pacing;
  /** A connected browser to open tabs in (the paired Chrome's name); default: the daemon's choice. */
  readonly browser?: string;
}

const INSTRUCTIONS = `Drive a real browser. Workflow: tab_open {url} → snapshot (outline with handles like el3, ln2) → act by handle (click, fill, type, press, select, hover) → after a navigation, snapshot again: old handles are stale. Replies say what changed (navigation, dialog) instead of returning the page. Errors end with "What to do". HUMAN_REQUIRED means a person must act in the browser first; then session_resume.`;

const SHUTDOWN_MS = 5_000;
/** Tools that need no tab of this connection. */
const SESSIONLESS = new Set(['tab_open', 'debug_last', 'debug_log']);

export class BproxyMcpServer {
  readonly server: Server;
  private readonly link: DaemonLink;
  private readonly session: ConnectionSession;
  private readonly tools = buildTools();

  constructor(private readonly options: McpServerOptions) {
    this.server = new Server(
      { name: 'bproxy', version: BPROXY_VERSION },
      { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
    );
    this.link = new DaemonLink(options.client);
    this.session = new ConnectionSession(this.link, options.pacing, () => this.label());
    this.link.onReconnect = () => this.session.forget();
    this.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: this.tools }));
    this.server.setRequestHandler(CallToolRequestSchema, (request) =>
      this.callTool(request.params.name, request.params.arguments ?? {}),
    );
  }

  private label(): string {
    const client = this.server.getClientVersion()?.name ?? 'client';
    return `mcp ${client}`.slice(0, 64);
  }

  async callTool(name: string, args: Record<string, unknown>): Promise<ToolReply> {
    const spec = TOOLS_BY_NAME.get(name);
    if (spec === undefined) return localError('UNKNOWN_TOOL', `no tool named "${name}"`, 'Call tools/list');
    const owned = this.options.browser === undefined ? {} : { browser: this.options.browser };
    const checked = checkToolArgs(spec, args, owned);
    if (!checked.ok) return checked.reply;
    const params = checked.params;

    let session: string | undefined;
    try {
      session = spec.name === 'tab_open' ? await this.session.ensure() : await this.session.existing();
    } catch (error) {
      if (error instanceof SessionCreateError) return errorReply(error.error);
      throw error;
    }
    if (session === undefined && !SESSIONLESS.has(spec.name))
      return localError('NO_TAB', 'no tab is open yet', 'Call tab_open with a url first');

    const outcome = await this.link.call(spec.action, params, session, toolTimeoutMs(spec, params));
    if (!outcome.ok) {
      if (outcome.error.code === 'SESSION_NOT_FOUND') this.session.forget();
      return errorReply(outcome.error);
    }
    return successReply(spec.name, params, outcome.data);
  }

  /** Closes this connection's session (and its tabs), then the link. Safe to call twice. */
  async shutdown(): Promise<void> {
    this.link.shutdown();
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_MS).unref());
    await Promise.race([this.session.close().catch(() => {}), deadline]);
    this.link.close();
    await this.server.close().catch(() => {});
  }
}

/** Serves MCP on stdin/stdout until the client goes away; resolves when the server has shut down. */
export async function runMcpServer(options: McpServerOptions): Promise<void> {
  const mcp = new BproxyMcpServer(options);
  let done: Promise<void> | null = null;
  const stop = (): Promise<void> => (done ??= mcp.shutdown());
  const stopped = new Promise<void>((resolve) => {
    const finish = () => void stop().then(resolve);
    process.stdin.on('end', finish);
    process.stdin.on('close', finish);
    process.once('SIGINT', finish);
    process.once('SIGTERM', finish);
    mcp.server.onclose = finish;
  });
  await mcp.server.connect(new StdioServerTransport());
  await stopped;
}
