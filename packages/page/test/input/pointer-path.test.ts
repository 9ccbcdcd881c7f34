import { describe, expect, it } from 'vitest';
import { pointerPath, type PathPoint } from '@bproxy/page';

/** A repeatable stand-in for Math.random. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const dist = (a: PathPoint, b: PathPoint): number => Math.hypot(a.x - b.x, a.y - b.y);

describe('pointerPath', () => {
  it('ends exactly on the target after several moves that close in on it', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const from = { x: 10, y: 20 };
      const to = { x: 410.5, y: 233.25 };
      const path = pointerPath(from, to, seeded(seed));
      expect(path[path.length - 1]).toEqual(to);
      expect(path.length).toBeGreaterThanOrEqual(3);
      expect(path.length).toBeLessThanOrEqual(6);
      let previous = from;
      for (const point of path) {
        expect(point).not.toEqual(previous);
        // Never further from the target than the step before (a gentle curve, no detours).
        expect(dist(point, to)).toBeLessThanOrEqual(dist(previous, to) + 1);
        previous = point;
      }
    }
  });

  it('moves slowly near both ends and fastest in the middle, as a hand does', () => {
    const path = pointerPath({ x: 0, y: 0 }, { x: 600, y: 0 }, () => 0.5);
    const steps = path.map((p, i) => dist(p, path[i - 1] ?? { x: 0, y: 0 }));
    const middle = Math.max(...steps);
    expect(steps[0]).toBeLessThan(middle / 2);
    expect(steps[steps.length - 1]).toBeLessThan(middle / 2);
  });

  it('moves one pixel beside the target when the pointer already rests on it, never back to the same pixel', () => {
    for (let seed = 1; seed <= 20; seed++) {
      let rest: PathPoint = { x: 50.5, y: 60 };
      for (let click = 0; click < 4; click++) {
        const path = pointerPath(rest, { x: 50.5, y: 60 }, seeded(seed));
        expect(path).toHaveLength(1);
        const end = path[0] ?? rest;
        expect(Math.abs(end.x - 50.5)).toBe(1);
        expect(end.y).toBe(60);
        expect(Math.trunc(end.x)).not.toBe(Math.trunc(rest.x));
        rest = end;
      }
    }
  });

  it('approaches from close by when the pointer position is unknown', () => {
    const to = { x: 300, y: 200 };
    const path = pointerPath(null, to, seeded(7));
    expect(path[path.length - 1]).toEqual(to);
    expect(path.every((p) => dist(p, to) < 30)).toBe(true);
  });

  it('bows to either side but stays close to the straight line', () => {
    const sides = new Set<number>();
    for (let seed = 1; seed <= 20; seed++) {
      const path = pointerPath({ x: 0, y: 0 }, { x: 500, y: 0 }, seeded(seed));
      const off = path.map((p) => p.y);
      expect(Math.max(...off.map(Math.abs))).toBeLessThanOrEqual(40);
      sides.add(Math.sign(off.reduce((a, b) => a + b, 0)));
    }
    expect(sides.has(1) && sides.has(-1)).toBe(true);
  });
});
