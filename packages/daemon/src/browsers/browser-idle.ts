/**
 * Closing the browsers the daemon opened once nobody uses them: a launched Chromium or a session's farm
 * browser that has had no tab in any session, and no tab open on its way, for the browser-idle period.
 * The launchers open it again on the next tab open. Which browsers may be closed at all is the
 * launchers' decision (never an attached one, a shared remote one or an extension: `closable`); this
 * file only counts down.
 *
 * Each browser's countdown starts when its last tab goes (or when it connects without one) and is
 * cancelled by a new tab or a hold (a tab.open choosing it). The timer re-checks the monotonic clock
 * when it fires, and a browser still busy then (a request on its way to it) gets a new period.
 */
import type { Clock } from '../clock';

interface Countdown {
  sinceMono: number;
  timer: NodeJS.Timeout;
}

export interface IdleBrowserDeps {
  clock: Clock;
  /** null: browsers are never closed for idleness. */
  afterMs: number | null;
  /** Whether the daemon may close this browser at all; the others are never counted down. */
  closable(clientKey: string): boolean;
  /** Whether anything still needs the browser: a tab of a session, or a request in flight to it. */
  busy(clientKey: string): boolean;
  /** The period ran out: close the browser. */
  onIdle(clientKey: string): void;
}

export class IdleBrowsers {
  private readonly countdowns = new Map<string, Countdown>();
  private readonly holds = new Map<string, number>();

  constructor(private readonly deps: IdleBrowserDeps) {}

  get afterMs(): number | null {
    return this.deps.afterMs;
  }

  /** Re-evaluates one browser: counts down when nothing needs it, stops counting otherwise. */
  check(clientKey: string): void {
    if (this.deps.afterMs === null) return;
    const needed = (this.holds.get(clientKey) ?? 0) > 0 || this.deps.busy(clientKey);
    if (needed || !this.deps.closable(clientKey)) {
      this.cancel(clientKey);
      return;
    }
    if (!this.countdowns.has(clientKey)) this.start(clientKey, this.deps.afterMs);
  }

  /** Keeps the browser open until the returned release is called (a tab opening in it). */
  hold(clientKey: string): () => void {
    this.holds.set(clientKey, (this.holds.get(clientKey) ?? 0) + 1);
    this.cancel(clientKey);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.holds.get(clientKey) ?? 1) - 1;
      if (left > 0) this.holds.set(clientKey, left);
      else this.holds.delete(clientKey);
      this.check(clientKey);
    };
  }

  /** Time left before the browser is closed, if it is counting down. */
  closesInMs(clientKey: string): number | undefined {
    const countdown = this.countdowns.get(clientKey);
    if (countdown === undefined || this.deps.afterMs === null) return undefined;
    return Math.max(0, Math.round(countdown.sinceMono + this.deps.afterMs - this.deps.clock.monotonic()));
  }

  /** The browser is gone (closed, crashed for good): nothing to count down. */
  forget(clientKey: string): void {
    this.cancel(clientKey);
    this.holds.delete(clientKey);
  }

  clear(): void {
    for (const key of [...this.countdowns.keys()]) this.cancel(key);
    this.holds.clear();
  }

  private start(clientKey: string, afterMs: number): void {
    const sinceMono = this.deps.clock.monotonic();
    const fire = (): void => {
      const countdown = this.countdowns.get(clientKey);
      if (countdown?.timer !== timer) return;
      const left = sinceMono + afterMs - this.deps.clock.monotonic();
      if (left > 0) {
        timer = setTimeout(fire, Math.ceil(left)).unref();
        countdown.timer = timer;
        return;
      }
      this.countdowns.delete(clientKey);
      if (this.deps.busy(clientKey)) this.start(clientKey, afterMs);
      else this.deps.onIdle(clientKey);
    };
    let timer = setTimeout(fire, afterMs).unref();
    this.countdowns.set(clientKey, { sinceMono, timer });
  }

  private cancel(clientKey: string): void {
    const countdown = this.countdowns.get(clientKey);
    if (countdown === undefined) return;
    clearTimeout(countdown.timer);
    this.countdowns.delete(clientKey);
  }
}
