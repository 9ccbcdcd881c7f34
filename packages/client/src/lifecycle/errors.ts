/**
 * Local lifecycle failures: they never cross the wire, so they carry a plain sentence for people
 * (printed by `bproxy service start` and friends) and a kind that callers match on instead of text.
 */
export type LifecycleErrorKind =
  /** An environment variable or daemon argument has a value we refuse to guess about. */
  | 'config'
  /** A state file or the state directory is not safe to trust (symlink, owner, permissions). */
  | 'unsafe-state'
  /** Another daemon of the same BPROXY_HOME holds the lock. */
  | 'already-running'
  /** The port is taken or cannot be bound. */
  | 'port'
  /** Anything else that stops the daemon from starting or stopping. */
  | 'failed';

export class LifecycleError extends Error {
  override readonly name = 'LifecycleError';
  constructor(
    readonly kind: LifecycleErrorKind,
    message: string,
  ) {
    super(message);
  }
}

export function isLifecycleError(error: unknown): error is LifecycleError {
  return error instanceof LifecycleError;
}

/** The errno code of a Node system error, if any. */
export function errnoCode(error: unknown): string | undefined {
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') return error.code;
  return undefined;
}

/** A message for people, whatever was thrown. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
