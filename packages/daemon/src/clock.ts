/**
 * Time sources. Deadlines, TTLs and throttles use the monotonic clock so that a wall-clock jump
 * cannot expire or extend them; wall time is only for timestamps shown to people and for converting
 * a request's epoch deadline once, on receipt.
 */
export interface Clock {
  now(): number;
  monotonic(): number;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
};
