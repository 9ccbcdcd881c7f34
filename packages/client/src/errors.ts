/**
 * Local failures of a client: no daemon, a state file that cannot be trusted, a daemon that does not
 * answer or answers outside the protocol. They never cross the wire; their codes and hints come from
 * the one catalogue (its client-side rows). The daemon's own errors are not these: they come back as answers
 * (see answer.ts), so a caller always knows which side failed.
 */
import { hintOf, type ErrorCode } from '@bproxy/protocol/plain';

export type ClientErrorCode = Extract<
  ErrorCode,
  | 'NO_DAEMON'
  | 'UNSAFE_STATE_FILE'
  | 'DAEMON_UNREACHABLE'
  | 'DAEMON_NOT_PROVEN'
  | 'BAD_RESPONSE'
  | 'VERSION_MISMATCH'
>;

export class ClientError extends Error {
  override readonly name = 'ClientError';
  readonly hint: string;
  constructor(
    readonly code: ClientErrorCode,
    message: string,
    /** For VERSION_MISMATCH: the version the running daemon named (null: none). */
    readonly daemonVersion: string | null = null,
  ) {
    super(message);
    this.hint = hintOf(code);
  }
}

export function isClientError(error: unknown): error is ClientError {
  return error instanceof ClientError;
}

export function noDaemonError(home: string, why: string): ClientError {
  return new ClientError('NO_DAEMON', `no bproxy daemon is running for ${home} (${why})`);
}
