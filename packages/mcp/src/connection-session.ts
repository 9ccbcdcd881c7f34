/**
 * The one daemon session of an MCP connection. Created lazily (on the first call that needs it) with
 * the server's pacing, its browser and a label naming the client, passed on every call so tools never
 * take a session argument, and closed — with its tabs — when the client goes away. Two connections therefore never
 * share tabs or handles: the daemon scopes both to the session.
 *
 * Given an existing session instead (`bproxy mcp --session ID`: the in-browser agent's Claude Code,
 * bound to the tab the user shared), every call runs in that one, and it is never closed here: it
 * belongs to whoever created it.
 */
import type { ToolError } from '@bproxy/tools';
import type { DaemonLink } from './daemon-link';

export type Pacing = 'human' | 'fast';

const SESSION_CALL_MS = 10_000;

export class ConnectionSession {
  private current: Promise<string> | null = null;

  constructor(
    private readonly link: DaemonLink,
    private readonly pacing: Pacing,
    private readonly label: () => string,
    /** The browser the session's tabs open in (`bproxy mcp --browser NAME`); default: the daemon's choice. */
    private readonly browser?: string,
    /** An existing session to use (and never close) instead of creating one. */
    private readonly fixed?: string,
  ) {
    if (fixed !== undefined) this.current = Promise.resolve(fixed);
  }

  /** The session id if one was created (no daemon call). */
  async existing(): Promise<string | undefined> {
    if (this.current === null) return undefined;
    try {
      return await this.current;
    } catch {
      return undefined;
    }
  }

  /** The session id, creating the session on first use; concurrent first calls share one creation. */
  ensure(): Promise<string> {
    if (this.current === null) {
      const pending = this.create();
      this.current = pending;
      pending.catch(() => {
        if (this.current === pending) this.current = null;
      });
    }
    return this.current;
  }

  /** Forgets the session without closing it (the daemon that held it is gone). */
  forget(): void {
    // A given session is the caller's: the daemon answers SESSION_NOT_FOUND for it from now on.
    if (this.fixed === undefined) this.current = null;
  }

  private async create(): Promise<string> {
    const outcome = await this.link.call(
      'session.create',
      {
        label: this.label(),
        pacing: this.pacing,
        ...(this.browser === undefined ? {} : { browser: this.browser }),
      },
      undefined,
      SESSION_CALL_MS,
    );
    if (!outcome.ok) throw new SessionCreateError(outcome.error);
    return (outcome.data as { session: string }).session;
  }

  /** Closes the session and its tabs (best effort: the daemon may already be gone). */
  async close(): Promise<void> {
    if (this.fixed !== undefined) return;
    const id = await this.existing();
    this.current = null;
    if (id === undefined) return;
    await this.link.call('session.close', {}, id, SESSION_CALL_MS);
  }
}

export class SessionCreateError extends Error {
  override readonly name = 'SessionCreateError';
  constructor(readonly error: ToolError) {
    super(error.message);
  }
}
