/**
 * Failures the host reports on the port: each becomes an `error` message with a code from the one
 * catalogue. Client and lifecycle failures (no daemon, an unsafe state file, a daemon that would not
 * start) keep their meaning; anything unexpected is INTERNAL_ERROR, with its message for the log.
 */
import { isClientError } from '@bproxy/client';
import { isLifecycleError } from '@bproxy/client/lifecycle';
import type { ErrorCode } from '@bproxy/protocol';

export class HostFailure extends Error {
  override readonly name = 'HostFailure';
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function failureOf(error: unknown): { readonly code: ErrorCode; readonly message: string } {
  if (error instanceof HostFailure || isClientError(error))
    return { code: error.code, message: error.message };
  if (isLifecycleError(error))
    return {
      code: error.kind === 'unsafe-state' ? 'UNSAFE_STATE_FILE' : 'NO_DAEMON',
      message: `cannot start the bproxy daemon: ${error.message}`,
    };
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'INTERNAL_ERROR', message: `the native host failed: ${message}` };
}
