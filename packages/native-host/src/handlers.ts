/**
 * The parts of the host that serve a family of port messages on their own: the in-browser agent
 * (chats and settings) and terminals (PTYs). runHost creates each through a factory on first use and
 * closes it when the port closes; until a real one is wired in, the default factories answer every
 * such message with UNSUPPORTED_ACTION.
 */
import type { Env } from '@bproxy/client';
import type { ExtensionToHost, HostToExtension } from '@bproxy/protocol';
import type { DaemonAccess } from './daemon/daemon-access';
import type { HostLog } from './host-log';

export type AgentMessage = Extract<
  ExtensionToHost,
  { type: 'user' | 'stop' | 'chat.history' | 'settings.get' | 'settings.set' }
>;
export type TerminalMessage = Extract<ExtensionToHost, { type: `pty.${string}` }>;

/** Sends one message to the browser (validated, chunked when large). */
export type Emit = (message: HostToExtension) => void;

/**
 * Serves one family of messages for the life of the port. `handle` may answer through `emit` at once
 * or later, any number of times (a chat streams deltas); a throw or rejection is reported to the
 * browser as an `error` tied to the message. `close` ends everything in flight (the port closed).
 */
export interface PortHandler<M> {
  handle(message: M, emit: Emit): void | Promise<void>;
  close(): Promise<void>;
}

/** Whether what is sent to the browser is being taken, for a handler that can produce without end. */
export interface OutputFlow {
  /** The browser has not taken what was sent: more now waits in the host's memory. */
  readonly full: boolean;
  /** Called each time the browser has taken everything after the flow was full. */
  onDrain(listener: () => void): void;
}

/** What a handler gets to work with. */
export interface HandlerContext {
  readonly env: Env;
  /** The absolute BPROXY_HOME. */
  readonly home: string;
  readonly log: HostLog;
  readonly daemon: DaemonAccess;
  readonly output: OutputFlow;
}

/** Builds the handler on first use; null means "not available in this host" (UNSUPPORTED_ACTION). */
export type HandlerFactory<M> = (
  context: HandlerContext,
) => PortHandler<M> | null | Promise<PortHandler<M> | null>;

export const NO_AGENT: HandlerFactory<AgentMessage> = () => null;
export const NO_TERMINAL: HandlerFactory<TerminalMessage> = () => null;

const AGENT_TYPES: ReadonlySet<string> = new Set([
  'user',
  'stop',
  'chat.history',
  'settings.get',
  'settings.set',
]);

export function isAgentMessage(message: ExtensionToHost): message is AgentMessage {
  return AGENT_TYPES.has(message.type);
}

export function isTerminalMessage(message: ExtensionToHost): message is TerminalMessage {
  return message.type.startsWith('pty.');
}
