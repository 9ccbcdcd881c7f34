/**
 * The agent's failures. An AgentError carries a code from the one catalogue and a sentence for the
 * user; it becomes an `error` message on the port (tied to a request id or a chat), never a crash.
 * Anything else thrown inside the agent is a bug and is reported as INTERNAL_ERROR without its text,
 * which might hold page content or a provider's echo of a key.
 */
import type { ErrorCode } from '@bproxy/protocol';

export class AgentError extends Error {
  override readonly name = 'AgentError';
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function isAgentError(error: unknown): error is AgentError {
  return error instanceof AgentError;
}

/** A message that fits the port's error schema (4000 characters). */
export function clip(text: string, max = 4000): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
