/**
 * The way a hand moves a mouse to a target: from where the pointer last rested, along a gently curved
 * line, fast in the middle and slow at both ends, ending exactly on the target. Pages that track the
 * pointer (menus that focus the item under it, drag handles) see a run of moves at distinct points
 * instead of one jump. Pure — no DOM, no clock — so any input implementation can share it: the page
 * script's synthetic events and the CDP driver's trusted ones.
 */

export interface PathPoint {
  readonly x: number;
  readonly y: number;
}

/**
 * About one move per this many pixels, within the bounds below. Few moves on purpose: a browser
 * delivers at most one pointer move per frame, so each one a driver waits for costs up to 16 ms.
 */
const PIXELS_PER_STEP = 100;
const MIN_STEPS = 2;
const MAX_STEPS = 6;
/** The curve bows sideways by at most this share of the distance, and at most MAX_BOW px. */
const BOW_SHARE = 0.12;
const MAX_BOW = 40;
/** Where a pointer with no known position comes from: a short approach from below right. */
const APPROACH = { x: 14, y: 18 };

/** Minimum-jerk profile: a hand accelerates and decelerates smoothly. */
function ease(t: number): number {
  return t * t * t * (10 + t * (-15 + 6 * t));
}

/**
 * The points to move through; the press belongs at the last one, which is exactly `to` — unless the
 * pointer already rests there: then it is a pixel beside it, as a hand never rests perfectly still,
 * and pages that ignore a move to the point they last saw (jQuery UI's menu) still see a move. `from`
 * is where the pointer rests (null when unknown). `random` returns numbers in [0, 1) (Math.random by
 * default; tests pass their own).
 */
export function pointerPath(
  from: PathPoint | null,
  to: PathPoint,
  random: () => number = Math.random,
): PathPoint[] {
  const start = from ?? { x: to.x + APPROACH.x, y: to.y + APPROACH.y };
  const dx = to.x - start.x;
  const dy = to.y - start.y;
  const distance = Math.hypot(dx, dy);
  if (distance < 2) {
    // Beside the target and off the resting pixel (browsers report whole pixels).
    const side =
      Math.trunc(start.x) < Math.trunc(to.x) || (Math.trunc(start.x) === Math.trunc(to.x) && random() < 0.5);
    return [{ x: to.x + (side ? 1 : -1), y: to.y }];
  }
  const steps = Math.min(MAX_STEPS, Math.max(MIN_STEPS, Math.ceil(distance / PIXELS_PER_STEP)));
  // A quadratic curve whose control point sits off the straight line, on a random side.
  const bow = Math.min(MAX_BOW, distance * BOW_SHARE) * (random() * 2 - 1);
  const control = {
    x: start.x + dx / 2 - (dy / distance) * bow,
    y: start.y + dy / 2 + (dx / distance) * bow,
  };
  const points: PathPoint[] = [];
  for (let i = 1; i < steps; i++) {
    const t = ease(i / steps);
    const u = 1 - t;
    const x = Math.round(u * u * start.x + 2 * u * t * control.x + t * t * to.x);
    const y = Math.round(u * u * start.y + 2 * u * t * control.y + t * t * to.y);
    const last = points[points.length - 1];
    const same = (p: PathPoint | undefined): boolean => p !== undefined && p.x === x && p.y === y;
    // Browsers truncate event coordinates to whole pixels: a point within a pixel of the target is dropped.
    if (!same(last) && !(Math.abs(x - to.x) < 1 && Math.abs(y - to.y) < 1)) points.push({ x, y });
  }
  points.push({ x: to.x, y: to.y });
  return points;
}
