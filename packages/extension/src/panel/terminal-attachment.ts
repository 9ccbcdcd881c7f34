/**
 * Which host terminal the Terminal view shows, kept true across what the view does not control. A view
 * that attaches to another terminal detaches the one it showed, whichever way it got there (a tab
 * change while the view was hidden included), so that the host's detach window starts for it. And a
 * native host that started anew knows none of the old terminals: when the host's status left
 * "connected" and came back, or when the host answers that it does not know the terminal, the view
 * opens it again (`reopen`).
 */
import type { HostToExtension } from '@bproxy/protocol';

type HostStatus = 'connected' | 'missing' | 'unavailable';
type NativeError = Extract<HostToExtension, { type: 'error' }>;
type Detach = { type: 'pty.detach'; termId: string };

/** The host's answer to keys or a resize for a terminal it does not know (TerminalHandler.known). */
const UNKNOWN_TERMINAL = /send pty\.open first/;

export class TerminalAttachment {
  private current: string | null = null;
  /** Connected once: a status before that is the host not started yet, not a host that went away. */
  private hostSeen = false;
  private hostAway = false;

  constructor(
    private readonly detach: (message: Detach) => void,
    private readonly reopen: () => void,
  ) {}

  get termId(): string | null {
    return this.current;
  }

  /** Shows `termId` from now on; the terminal shown before is detached. */
  attach(termId: string): void {
    if (this.current !== null && this.current !== termId) this.release();
    this.current = termId;
  }

  /** Shows no terminal: the one shown is detached. */
  release(): void {
    if (this.current !== null) this.detach({ type: 'pty.detach', termId: this.current });
    this.current = null;
  }

  /** The worker's news about the native host. */
  hostStatus(host: HostStatus): void {
    if (host !== 'connected') {
      if (this.hostSeen) this.hostAway = true;
      return;
    }
    this.hostSeen = true;
    if (!this.hostAway) return;
    this.hostAway = false;
    if (this.current !== null) this.reopen();
  }

  /**
   * An error tied to the shown terminal. Returns true when it was handled here: the host did not know
   * the terminal (it started anew), and it was opened again.
   */
  hostError(error: NativeError): boolean {
    if (this.current === null || error.termId !== this.current) return false;
    // The worker could not reach the host (or the host the daemon): open again once it is there.
    if (error.code === 'NO_NATIVE_HOST' || error.code === 'NO_DAEMON') this.hostAway = true;
    if (error.code !== 'BAD_REQUEST' || !UNKNOWN_TERMINAL.test(error.message)) return false;
    this.hostAway = false;
    this.reopen();
    return true;
  }
}
