import { describe, expect, it } from 'vitest';
import { Backoff } from '../../../src/background/daemon/backoff';

describe('reconnect backoff', () => {
  it('retries at once the first time, then draws each delay under a doubling ceiling capped at 10 s', () => {
    let draw = 0.999;
    const backoff = new Backoff({ baseMs: 250, capMs: 10_000, random: () => draw });
    expect(backoff.next()).toBe(0);
    const ceilings = [250, 500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000];
    for (const ceiling of ceilings) {
      const delay = backoff.next();
      expect(delay).toBeLessThan(ceiling);
      expect(delay).toBeGreaterThanOrEqual(Math.floor(ceiling * 0.99));
    }
    draw = 0;
    expect(backoff.next()).toBe(0);
  });

  it('spreads delays over the whole range (full jitter), never above the cap', () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    const backoff = new Backoff({ baseMs: 250, capMs: 10_000, random });
    for (let i = 0; i < 8; i++) backoff.next();
    const delays = Array.from({ length: 500 }, () => backoff.next());
    expect(Math.max(...delays)).toBeLessThan(10_000);
    expect(Math.min(...delays)).toBeLessThan(1_000);
    expect(Math.max(...delays)).toBeGreaterThan(9_000);
  });

  it('starts over after a reset', () => {
    const backoff = new Backoff({ baseMs: 250, capMs: 10_000, random: () => 0.5 });
    for (let i = 0; i < 5; i++) backoff.next();
    backoff.reset();
    expect(backoff.next()).toBe(0);
    expect(backoff.next()).toBe(125);
  });
});
