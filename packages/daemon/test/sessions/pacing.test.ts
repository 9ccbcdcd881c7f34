import { describe, expect, it } from 'vitest';
import { PACING_PROFILES, reserveSlot, type PacedSession } from '../../src/sessions/pacing';

describe('pacing', () => {
  it('lets the first paced action of a session through at once', () => {
    const s: PacedSession = { pacing: 'human', lastPacedAt: null };
    expect(reserveSlot(s, 'interaction', 1_000, 60_000, () => 0.5)).toBe(0);
  });

  it('spaces human actions by a delay drawn from the category range', () => {
    const s: PacedSession = { pacing: 'human', lastPacedAt: null };
    reserveSlot(s, 'navigate', 0, 60_000, () => 0);
    expect(reserveSlot(s, 'navigate', 100, 60_000, () => 0)).toBe(PACING_PROFILES.human.navigate.min - 100);
    const t: PacedSession = { pacing: 'human', lastPacedAt: 0 };
    expect(reserveSlot(t, 'scroll', 0, 60_000, () => 1)).toBe(PACING_PROFILES.human.scroll.max);
  });

  it('draws jittered delays inside the range', () => {
    const delays = new Set<number>();
    for (let i = 0; i < 50; i++) {
      const s: PacedSession = { pacing: 'human', lastPacedAt: 0 };
      const d = reserveSlot(s, 'fill', 0, 60_000, Math.random) ?? -1;
      expect(d).toBeGreaterThanOrEqual(500);
      expect(d).toBeLessThanOrEqual(2000);
      delays.add(d);
    }
    expect(delays.size).toBeGreaterThan(10);
  });

  it('queues concurrent reservations one behind the other', () => {
    const s: PacedSession = { pacing: 'human', lastPacedAt: null };
    const a = reserveSlot(s, 'interaction', 0, 60_000, () => 0);
    const b = reserveSlot(s, 'interaction', 0, 60_000, () => 0);
    const c = reserveSlot(s, 'interaction', 0, 60_000, () => 0);
    expect([a, b, c]).toEqual([0, 500, 1000]);
  });

  it('reserves nothing when the slot falls after the deadline', () => {
    const s: PacedSession = { pacing: 'human', lastPacedAt: 0 };
    expect(reserveSlot(s, 'navigate', 0, 1_000, () => 0)).toBeNull();
    expect(s.lastPacedAt).toBe(0);
  });

  it('does not delay fast sessions', () => {
    const s: PacedSession = { pacing: 'fast', lastPacedAt: 0 };
    expect(reserveSlot(s, 'scroll', 0, 10, () => 0.9)).toBe(0);
  });
});
