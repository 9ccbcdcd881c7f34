/**
 * The host's agent: @bproxy/agent, loaded on the first chat message (its model SDKs weigh on nothing
 * else the host does), talking to the daemon of this BPROXY_HOME through one kept-alive client that
 * starts the daemon implicitly when none runs. Claude Code, when it is the provider, reaches bproxy's
 * tools by running the CLI bundle beside the daemon's (`bproxy mcp --session ID`).
 */
import { dirname, join } from 'node:path';
import type { createAgentService } from '@bproxy/agent';
import { DaemonClient } from '@bproxy/client';
import type { AgentMessage, HandlerFactory } from './handlers';

/** What the host needs of the agent package (the bundle imports it from the file beside it). */
export interface AgentModule {
  readonly createAgentService: typeof createAgentService;
}

export function agentHandler(
  daemonScript: string,
  load: () => Promise<AgentModule>,
): HandlerFactory<AgentMessage> {
  return async (context) => {
    const agent = await load();
    const client = new DaemonClient({
      env: context.env,
      keepAlive: true,
      start: () => context.daemon.locate(true),
      // The Activity says the side panel's chat acted.
      agent: { kind: 'chat' },
    });
    return agent.createAgentService({
      home: context.home,
      client,
      logger: context.log,
      env: context.env,
      bproxyCommand: [process.execPath, join(dirname(daemonScript), 'bproxy.mjs')],
    });
  };
}
