/**
 * The stdio MCP server, an adapter on the tool catalogue (@bproxy/tools) and the daemon client:
 * tools/list answers the catalogue, tools/call is the catalogue's `runTool` (arguments checked, the
 * answer turned into its short reply or an isError result) with this connection's session.
 * The process lives as long as its client: when stdin ends (or a signal comes) the session and its
 * tabs are closed and the process exits 0.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { DaemonClient } from '@bproxy/client';
import { BPROXY_VERSION, agentName, type CapabilityGroup } from '@bproxy/protocol';
import {
  buildTools,
  CAPABILITIES_TOOL,
  capabilitiesTool,
  closedToolReply,
  DEFAULT_GROUPS,
  openGroups,
  runTool,
  TOOLS_BY_NAME,
  type DaemonAnswer,
  type ListedTool,
  type ToolAction,
  type ToolReply,
  type ToolSpec,
  untrustedRule,
} from '@bproxy/tools';
import { ConnectionSession, SessionCreateError, type Pacing } from './connection-session';
import { DaemonLink } from './daemon-link';

export interface McpServerOptions {
  /** The daemon of BPROXY_HOME: a client that starts it when none runs. */
  readonly client: DaemonClient;
  readonly pacing: Pacing;
  /** A connected browser to open tabs in (the paired Chrome's name); default: the daemon's choice. */
  readonly browser?: string;
  /** Use this existing session (never closed by the server) instead of creating one per connection. */
  readonly session?: string;
  /** The capability groups offered from the start (`bproxy mcp --caps`); default: core. */
  readonly groups?: ReadonlySet<CapabilityGroup>;
}

/**
 * What the client's model is told once: the workflow, and what the untrusted-data fence of this
 * process means (its nonce is in it; replies fence page text with the same one).
 */
export const INSTRUCTIONS = `Drive a real browser. Workflow: navigate {url} (opens a tab when none is open; tab_open for more tabs) → snapshot (outline with handles like el3, ln2) → act by handle (click, fill, type, press, select, hover) → after a navigation, snapshot again: old handles are stale. Replies say what changed (navigation, dialog) instead of returning the page. Errors end with "What to do". HUMAN_REQUIRED means a person must act in the browser first; then session_resume. More tools (debug, network, files, …): call capabilities with open [group]. ${untrustedRule()} A line flagged (hidden: …) or (aimed at AI) in a snapshot is text people do not see, or text written at an assistant; (aria-hidden: shows …) is what people see instead of its name.`;

/**
 * Said once, with the first reply of a connection, when the session is paced like a person: an agent
 * (and its user) otherwise sees calls that take seconds and cannot tell why. The ranges are the
 * daemon's human profile.
 */
export const HUMAN_PACING_NOTICE =
  'Note: this server paces actions like a person (clicks and fills 0.5-2 s apart, navigations 1.5-4 s, scrolls 4-8 s), so calls may wait; you cannot change that. If speed matters, the user can start it with `bproxy mcp --pacing fast`.';

const SHUTDOWN_MS = 5_000;
/** Tools that run without this connection's session (debug_log then asks the default browser). */
const SESSIONLESS = new Set(['debug_last', 'debug_log']);

export class BproxyMcpServer {
  readonly server: Server;
  private readonly link: DaemonLink;
  private readonly session: ConnectionSession;
  /** The capability groups this connection offers: the startup ones, and those the model opened. */
  private readonly opened: Set<CapabilityGroup>;
  /** Whether a tools/call has been answered yet: the first answer carries the pacing notice. */
  private answered = false;

  constructor(private readonly options: McpServerOptions) {
    this.opened = new Set(options.groups ?? DEFAULT_GROUPS);
    this.server = new Server(
      { name: 'bproxy', version: BPROXY_VERSION },
      { capabilities: { tools: { listChanged: true } }, instructions: INSTRUCTIONS },
    );
    this.link = new DaemonLink(options.client);
    // Every request says it comes from an MCP client, named as it named itself once it has.
    options.client.identify(() => {
      const name = agentName(this.server.getClientVersion()?.name ?? '');
      return name === '' ? { kind: 'mcp' } : { kind: 'mcp', name };
    });
    this.session = new ConnectionSession(
      this.link,
      options.pacing,
      () => this.label(),
      options.browser,
      options.session,
    );
    this.link.onReconnect = () => this.session.forget();
    this.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: this.listTools() }));
    this.server.setRequestHandler(CallToolRequestSchema, async (request) =>
      this.withNotice(await this.callTool(request.params.name, request.params.arguments ?? {})),
    );
  }

  /** The first reply of the connection says how it is paced (human pacing only). */
  private withNotice(reply: ToolReply): ToolReply {
    if (this.answered) return reply;
    this.answered = true;
    // A given session keeps the pacing its creator chose; the notice would be a guess.
    if (this.options.pacing !== 'human' || this.options.session !== undefined) return reply;
    return { ...reply, content: [...reply.content, { type: 'text', text: HUMAN_PACING_NOTICE }] };
  }

  private label(): string {
    const client = this.server.getClientVersion()?.name ?? 'client';
    return `mcp ${client}`.slice(0, 64);
  }

  /** The tools of the open groups, then `capabilities` while a group with tools is closed. */
  listTools(): ListedTool[] {
    const more = capabilitiesTool(this.opened);
    return [...buildTools(this.opened), ...(more === null ? [] : [more])];
  }

  async callTool(name: string, args: Record<string, unknown>): Promise<ToolReply> {
    if (name === CAPABILITIES_TOOL) {
      const { changed, reply } = openGroups(this.opened, args);
      // Clients that refresh on it (VS Code) list the new tools; the reply serves those that do not.
      if (changed) await this.server.sendToolListChanged().catch(() => {});
      return reply;
    }
    const spec = TOOLS_BY_NAME.get(name);
    if (spec !== undefined && !this.opened.has(spec.group)) return closedToolReply(spec);
    // A batch's steps are offered as the tools are: a tool of a closed group is refused there too.
    const steps = (step: ToolSpec) => (this.opened.has(step.group) ? null : closedToolReply(step));
    return (await runTool(name, args, (call) => this.send(call), { steps })).reply;
  }

  /**
   * One tool's action in this connection's session. The session exists before any tab: navigate opens
   * the first tab in it, and a tool that needs a tab gets the daemon's own answer (TAB_NOT_FOUND)
   * rather than one made up here.
   */
  private async send({ tool, params, timeoutMs }: ToolAction): Promise<DaemonAnswer> {
    let session: string | undefined;
    try {
      session = SESSIONLESS.has(tool.name) ? await this.session.existing() : await this.session.ensure();
    } catch (error) {
      if (error instanceof SessionCreateError) return { ok: false, error: error.error };
      throw error;
    }
    const answer = await this.link.answer(tool.action, params, session, timeoutMs);
    if (!answer.ok && answer.error.code === 'SESSION_NOT_FOUND') this.session.forget();
    return answer;
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
    // A closed terminal: its MCP client is gone, and so must this connection's session and tabs be.
    process.once('SIGHUP', finish);
    mcp.server.onclose = finish;
  });
  await mcp.server.connect(new StdioServerTransport());
  await stopped;
}
