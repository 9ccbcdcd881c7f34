/**
 * Human-like pacing, enforced in the daemon so an agent cannot bypass it. Each paced action draws a
 * delay from its category's range and may not start sooner than that after the session's previous
 * paced action. Slots are reserved synchronously, so concurrent requests queue behind each other
 * instead of all passing at once.
 */
import type { PacingCategory, PacingMode } from '@bproxy/protocol';

export type PacingProfile = Record<PacingCategory, { min: number; max: number }>;

export const PACING_PROFILES: Record<PacingMode, PacingProfile> = {
  human: {
    navigate: { min: 1500, max: 4000 },
    scroll: { min: 4000, max: 8000 },
    interaction: { min: 500, max: 2000 },
    fill: { min: 500, max: 2000 },
  },
  fast: {
    navigate: { min: 0, max: 0 },
    scroll: { min: 0, max: 0 },
    interaction: { min: 0, max: 0 },
    fill: { min: 0, max: 0 },
  },
};

export interface PacedSession {
  pacing: PacingMode;
  lastPacedAt: number | null;
}

export function randomInRange(range: { min: number; max: number }, random: () => number): number {
  return Math.round(range.min + (range.max - range.min) * random());
}

/**
 * Reserves the session's next slot for an action of `category` and returns how long to wait (ms).
 * `deadlineMono` bounds the reservation: if the slot would fall after it, nothing is reserved and
 * null is returned so the caller can fail fast with TIMEOUT.
 */
export function reserveSlot(
  session: PacedSession,
  category: PacingCategory,
  nowMono: number,
  deadlineMono: number,
  random: () => number,
): number | null {
  const delay = randomInRange(PACING_PROFILES[session.pacing][category], random);
  const earliest = session.lastPacedAt === null ? nowMono : Math.max(nowMono, session.lastPacedAt + delay);
  if (earliest > deadlineMono) return null;
  session.lastPacedAt = earliest;
  return earliest - nowMono;
}
