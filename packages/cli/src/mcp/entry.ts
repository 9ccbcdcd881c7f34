/**
 * The entry of dist/mcp.mjs, the bundle `bproxy mcp` loads (kept apart so that the MCP SDK never
 * slows down the CLI's other commands). It gives the MCP server the CLI's own way of finding the
 * daemon — the same state-file checks — and of starting it exactly like `bproxy service start`.
 */
import { runMcpServer, type DaemonEndpoint, type Pacing } from '@bproxy/mcp';
import { CliError } from '../cli-error';
import { findDaemon } from '../endpoint';
import { launchDaemon } from '../service/start';

export interface McpCommandOptions {
  readonly pacing: Pacing;
  readonly browser?: string;
}

/** The running daemon, or a new one (embedded headless browser, like `service start`). */
async function connect(): Promise<DaemonEndpoint> {
  try {
    return findDaemon(process.env);
  } catch (error) {
    if (!(error instanceof CliError) || error.code !== 'NO_DAEMON') throw error;
  }
  try {
    await launchDaemon({ browser: null, attach: null, cdpUrl: null });
  } catch (error) {
    // Another server (or a person) started it meanwhile: the lockfile decided, use theirs.
    try {
      return findDaemon(process.env);
    } catch {
      throw error;
    }
  }
  return findDaemon(process.env);
}

export async function serveMcp(options: McpCommandOptions): Promise<void> {
  await runMcpServer({
    connect,
    pacing: options.pacing,
    ...(options.browser ? { browser: options.browser } : {}),
  });
}
