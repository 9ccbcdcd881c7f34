/**
 * The streamed answer's render batching: any number of deltas between two frames render once, the end
 * of an answer renders at once, and a slow render leaves the main thread as long again before the next.
 */
import { describe, expect, it } from 'vitest';
import { RenderBatch, type FrameClock } from '../../src/panel/render-batch';

/** Frames that come when the test says, and a clock the renders advance. */
function frames() {
  let now = 0;
  let waiting: { run: () => void; at: number }[] = [];
  const clock: FrameClock = {
    now: () => now,
    later(run, delayMs) {
      const entry = { run, at: now + delayMs };
      waiting.push(entry);
      return () => {
        waiting = waiting.filter((w) => w !== entry);
      };
    },
  };
  return {
    clock,
    advance: (ms: number) => void (now += ms),
    /** One animation frame `ms` after the last: runs what waits for it. */
    frame(ms = 16) {
      now += ms;
      const due = waiting.filter((w) => w.at <= now);
      waiting = waiting.filter((w) => w.at > now);
      for (const w of due) w.run();
    },
    pending: () => waiting.length,
  };
}

describe('rendering a streamed answer', () => {
  it('renders many deltas between two frames once, and at most once per frame', () => {
    const f = frames();
    let renders = 0;
    const batch = new RenderBatch(() => void (renders += 1), f.clock);
    for (let i = 0; i < 4_000; i++) batch.request();
    expect(renders).toBe(0);
    expect(f.pending()).toBe(1);
    f.frame();
    expect(renders).toBe(1);
    f.frame();
    expect(renders).toBe(1);
    batch.request();
    batch.request();
    f.frame();
    expect(renders).toBe(2);
  });

  it('renders at once when the answer ends, and not again at the next frame', () => {
    const f = frames();
    let renders = 0;
    const batch = new RenderBatch(() => void (renders += 1), f.clock);
    batch.request();
    batch.flush();
    expect(renders).toBe(1);
    expect(f.pending()).toBe(0);
    batch.flush();
    expect(renders).toBe(1);
  });

  it('after a render that took t ms, waits t ms more before the next, so the page stays responsive', () => {
    const f = frames();
    let renders = 0;
    const batch = new RenderBatch(() => {
      renders += 1;
      f.advance(40);
    }, f.clock);
    batch.request();
    f.frame();
    expect(renders).toBe(1);
    batch.request();
    f.frame(16);
    expect(renders).toBe(1);
    f.frame(30);
    expect(renders).toBe(2);
  });
});
