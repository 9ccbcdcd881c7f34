/**
 * Deadlines on the driver side. A forwarded request carries its deadline as epoch milliseconds; the
 * daemon answers TIMEOUT to the agent at that moment, so a driver must neither start a request that
 * arrives later (the agent may already act on the TIMEOUT) nor keep working past it.
 */
import { makeError, type BproxyError } from '@bproxy/protocol';
import { DriverFailure } from './failure';

/** Milliseconds left before `deadline`, never negative. */
export function timeLeft(deadline: number, now: () => number = Date.now): number {
  return Math.max(0, deadline - now());
}

/** The answer to a request that was still running at its deadline. */
export function deadlineError(what: string): BproxyError {
  return makeError('TIMEOUT', `${what}: not finished before its deadline`);
}

/** The answer to a request that reached the driver after its deadline: it was never started. */
export function lateError(action: string): BproxyError {
  return makeError('TIMEOUT', `${action}: reached the browser driver after its deadline and was not run`);
}

/**
 * Resolves with `work`, or rejects with a TIMEOUT DriverFailure when the deadline passes first (at
 * once when it has passed already). `work` keeps running: what it does after the deadline is ignored,
 * and a late rejection is not left unhandled.
 */
export function withDeadline<T>(
  work: Promise<T>,
  deadline: number,
  what: string,
  now: () => number = Date.now,
): Promise<T> {
  work.catch(() => undefined);
  const remaining = deadline - now();
  if (remaining <= 0) return Promise.reject(new DriverFailure(deadlineError(what)));
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new DriverFailure(deadlineError(what))), remaining);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
