/**
 * The flat-mode sessions a tool holds on its connection, as the browser announced them
 * (Target.attachedToTarget / Target.detachedFromTarget, each on its parent's session). When the
 * browser vanishes without a word, these are the sessions the tool still believes in: the relay tells
 * it they are gone, innermost first, exactly as a browser closing its targets would.
 */

export interface TrackedSession {
  readonly sessionId: string;
  readonly targetId: string;
  /** The session the attach event came on; undefined for the root (browser) session. */
  readonly parent: string | undefined;
}

export class SessionTracker {
  private readonly sessions = new Map<string, TrackedSession>();

  attached(params: Record<string, unknown>, parent: string | undefined): TrackedSession | undefined {
    const sessionId = params.sessionId;
    const info = params.targetInfo;
    const targetId =
      typeof info === 'object' && info !== null ? (info as { targetId?: unknown }).targetId : undefined;
    if (typeof sessionId !== 'string' || typeof targetId !== 'string') return undefined;
    const session = { sessionId, targetId, parent };
    this.sessions.set(sessionId, session);
    return session;
  }

  detached(params: Record<string, unknown>): void {
    if (typeof params.sessionId === 'string') this.forget(params.sessionId);
  }

  /** Every tracked session, children before their parents; the tracker is empty afterwards. */
  takeAllInnermostFirst(): TrackedSession[] {
    const depth = (session: TrackedSession): number => {
      let d = 0;
      let parent = session.parent;
      while (parent !== undefined && d < this.sessions.size) {
        d++;
        parent = this.sessions.get(parent)?.parent;
      }
      return d;
    };
    const all = [...this.sessions.values()].sort((a, b) => depth(b) - depth(a));
    this.sessions.clear();
    return all;
  }

  private forget(sessionId: string): void {
    this.sessions.delete(sessionId);
    // A detached session takes its children with it.
    for (const session of [...this.sessions.values()]) {
      if (session.parent === sessionId) this.forget(session.sessionId);
    }
  }
}
