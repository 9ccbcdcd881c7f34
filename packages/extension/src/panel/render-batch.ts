/**
 * Coalesces the renders of a streamed answer: however many deltas arrive, `run` runs at most once per
 * animation frame, and after a render that took t ms the next one waits t ms more, so rendering never
 * takes more than about half of the panel's main thread — Stop and Take over stay responsive whatever
 * a model streams. `flush` renders at once (the answer ended, or something follows it).
 */
export interface FrameClock {
  now(): number;
  /** Calls `run` at an animation frame no sooner than `delayMs` from now; returns a cancel. */
  later(run: () => void, delayMs: number): () => void;
}

/** A page with no frames (hidden) still renders, at this pace. */
const HIDDEN_PAGE_MS = 250;

export const browserClock: FrameClock = {
  now: () => performance.now(),
  later(run, delayMs) {
    let done = false;
    let frame = 0;
    let fallback: ReturnType<typeof setTimeout> | undefined;
    const go = () => {
      if (done) return;
      done = true;
      cancelAnimationFrame(frame);
      clearTimeout(fallback);
      run();
    };
    const atFrame = () => {
      frame = requestAnimationFrame(go);
      fallback = setTimeout(go, HIDDEN_PAGE_MS);
    };
    const wait = delayMs > 0 ? setTimeout(atFrame, delayMs) : undefined;
    if (wait === undefined) atFrame();
    return () => {
      done = true;
      clearTimeout(wait);
      cancelAnimationFrame(frame);
      clearTimeout(fallback);
    };
  },
};

export class RenderBatch {
  private cancel: (() => void) | null = null;
  private restUntil = 0;

  constructor(
    private readonly run: () => void,
    private readonly clock: FrameClock = browserClock,
  ) {}

  /** Something changed: render at the next frame (once, however often this is called meanwhile). */
  request(): void {
    if (this.cancel !== null) return;
    const delay = Math.max(0, this.restUntil - this.clock.now());
    this.cancel = this.clock.later(() => {
      this.cancel = null;
      this.render();
    }, delay);
  }

  /** Renders now what a pending request would have rendered. */
  flush(): void {
    if (this.cancel === null) return;
    this.cancel();
    this.cancel = null;
    this.render();
  }

  private render(): void {
    const started = this.clock.now();
    this.run();
    const ended = this.clock.now();
    this.restUntil = ended + (ended - started);
  }
}
