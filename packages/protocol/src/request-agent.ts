/**
 * Which kind of agent sent a request, as the browser's user is told in the side panel's Activity: the
 * CLI typed in a shell, the same CLI in the side panel's Terminal, an MCP client (with the name it gave
 * in its `initialize`), or the side panel's chat. The client says it in the request envelope; it is a
 * label for people, never a credential (any holder of the token may claim any kind), so nothing is
 * allowed or refused by it. Zod-free: the daemon client imports it.
 */
export const AGENT_KINDS = ['cli', 'terminal', 'mcp', 'chat'] as const;
export type AgentKind = (typeof AGENT_KINDS)[number];

/** The longest client name kept (an MCP client's `clientInfo.name`). */
export const AGENT_NAME_MAX = 64;

export interface RequestAgent {
  readonly kind: AgentKind;
  readonly name?: string;
}

/** Set by the native host in its Terminal's environment: a CLI run there says it is the terminal. */
export const TERMINAL_AGENT_VAR = 'BPROXY_AGENT_KIND';

/** A client name as it goes on the wire: control characters out, cut to AGENT_NAME_MAX. */
export function agentName(name: string): string {
  const clean = Array.from(name, (c) => (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f ? ' ' : c))
    .join('')
    .trim();
  return clean.slice(0, AGENT_NAME_MAX);
}
