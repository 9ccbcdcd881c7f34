/**
 * The entry of dist/mcp.mjs, the bundle `bproxy mcp` loads (kept apart so that the MCP SDK never
 * slows down the CLI's other commands). It gives the MCP server a daemon client that finds the daemon
 * of BPROXY_HOME — the same state-file checks as every command — and starts it like `bproxy service
 * start` when none runs, as an implicit daemon that stops when no agent uses it any more.
 */
import { DaemonClient } from '@bproxy/client';
import { startDaemon } from '@bproxy/client/service';
import { parseGroups, runMcpServer, type Pacing } from '@bproxy/mcp';
import { startOptions } from '../service/service-commands';

export interface McpCommandOptions {
  readonly pacing: Pacing;
  readonly browser?: string;
  readonly session?: string;
  /** `--caps`: the tool groups offered besides core (the command checked the names). */
  readonly caps?: string;
}

export async function serveMcp(options: McpCommandOptions): Promise<void> {
  const groups = parseGroups(options.caps ?? '');
  if (!groups.ok) throw new Error(`--caps: ${groups.message}`);
  await runMcpServer({
    // The browsers of a plain `service start` (BPROXY_* choose), but implicit: nobody asked for this
    // daemon, so it stops by itself once no agent has used it for BPROXY_IDLE_EXIT.
    client: new DaemonClient({
      keepAlive: true,
      start: () => startDaemon(startOptions({ implicit: true })),
    }),
    pacing: options.pacing,
    ...(options.browser ? { browser: options.browser } : {}),
    ...(options.session ? { session: options.session } : {}),
    groups: groups.groups,
  });
}
