/**
 * Failures the CLI reports itself (as opposed to the daemon's protocol errors), with codes from the
 * same catalogue — its client-side rows — so an agent reads one set of codes whoever raised them.
 * Each carries its exit code, so the one place that prints errors also decides the exit status:
 * 1 failure, 2 usage, 3 no daemon running.
 */
import type { ClientError } from '@bproxy/client';
import type { ErrorCode } from '@bproxy/protocol/plain';

export const EXIT = { ok: 0, failure: 1, usage: 2, noDaemon: 3 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    /** A code of the one catalogue, from its client-side rows: USAGE, NO_DAEMON, UNSAFE_STATE_FILE, … */
    readonly code: ErrorCode,
    message: string,
    readonly exitCode: ExitCode,
    readonly hint?: string,
  ) {
    super(message);
  }
}

export function usageError(message: string, hint?: string): CliError {
  return new CliError('USAGE', message, EXIT.usage, hint);
}

/** Service commands (start/stop/status) print plain sentences on stderr, per the lifecycle contract. */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';
}

/** A client's local failure (no daemon, an unsafe state file, …) with the exit code it means here. */
export function fromClientError(error: ClientError): CliError {
  const exit = error.code === 'NO_DAEMON' ? EXIT.noDaemon : EXIT.failure;
  return new CliError(error.code, error.message, exit, error.hint);
}
