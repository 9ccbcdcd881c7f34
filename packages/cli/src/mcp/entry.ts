/**
 * The entry of dist/mcp.mjs, the bundle `bproxy mcp` loads (kept apart so that the MCP SDK never
 * slows down the CLI's other commands). It gives the MCP server a daemon client that finds the daemon
 * of BPROXY_HOME — the same state-file checks as every command — and starts it exactly like
 * `bproxy service start` when none runs.
 */
import { DaemonClient } from '@bproxy/client';
import { startDaemon } from '@bproxy/client/service';
import { runMcpServer, type Pacing } from '@bproxy/mcp';
import { startOptions } from '../service/service-commands';

export interface McpCommandOptions {
  readonly pacing: Pacing;
  readonly browser?: string;
  readonly session?: string;
}

export async function serveMcp(options: McpCommandOptions): Promise<void> {
  await runMcpServer({
    // The embedded headless browser, like a plain `service start`.
    client: new DaemonClient({
      keepAlive: true,
      start: () => startDaemon(startOptions({ browser: null, attach: null, cdpUrl: null })),
    }),
    pacing: options.pacing,
    ...(options.browser ? { browser: options.browser } : {}),
    ...(options.session ? { session: options.session } : {}),
  });
}
