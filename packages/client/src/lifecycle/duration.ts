/**
 * Periods in configuration (BPROXY_IDLE_EXIT, BPROXY_BROWSER_IDLE, --browser-idle): a whole number
 * with its unit — `500ms`, `30s`, `5m`, `2h` — or `off`. A bare number is refused rather than
 * guessed at (seconds? milliseconds?).
 */
import { LifecycleError } from './errors';

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const;
/** A week: far beyond any sensible idle period, and well inside what a Node timer can wait. */
const MAX_MS = 7 * 24 * 3_600_000;

/** Milliseconds, or null for `off`. `name` is the variable or flag, for the message. */
export function parseDuration(name: string, raw: string): number | null {
  if (raw === 'off') return null;
  const match = /^([0-9]{1,9})(ms|s|m|h)$/.exec(raw);
  const ms = match ? Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS] : NaN;
  if (!(ms > 0 && ms <= MAX_MS)) {
    throw new LifecycleError(
      'config',
      `${name} must be a period like 500ms, 30s, 5m or 2h (at most 168h), or off; got "${raw}"`,
    );
  }
  return ms;
}
