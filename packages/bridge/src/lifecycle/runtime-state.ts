/**
 * The bridge's runtime states and the only transitions between them:
 *
 *   starting → connected      the first attach or launch succeeded
 *   starting → closing        it failed, or a signal came first
 *   connected → degraded      the browser went away (ws lifecycle: stay up, recover on demand)
 *   connected → closing       the browser went away (pipe lifecycle), Browser.close, a signal, a fatal error
 *   degraded → connected      the next request recovered the browser
 *   degraded → closing        recovery failed, Browser.close, a signal
 *
 * A transition not in this table is a bug in the bridge, so it throws rather than being ignored.
 */
export type RuntimeState = 'starting' | 'connected' | 'degraded' | 'closing';

const ALLOWED: Readonly<Record<RuntimeState, readonly RuntimeState[]>> = {
  starting: ['connected', 'closing'],
  connected: ['degraded', 'closing'],
  degraded: ['connected', 'closing'],
  closing: [],
};

export class RuntimeStateMachine {
  private current: RuntimeState = 'starting';
  private readonly listeners = new Set<(to: RuntimeState, from: RuntimeState) => void>();

  get state(): RuntimeState {
    return this.current;
  }

  canMove(to: RuntimeState): boolean {
    return ALLOWED[this.current].includes(to);
  }

  move(to: RuntimeState): void {
    if (!this.canMove(to)) throw new Error(`bridge state: ${this.current} → ${to} is not a transition`);
    const from = this.current;
    this.current = to;
    for (const listener of [...this.listeners]) listener(to, from);
  }

  onChange(listener: (to: RuntimeState, from: RuntimeState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
