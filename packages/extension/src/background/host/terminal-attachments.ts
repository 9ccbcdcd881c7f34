/**
 * Which panel views the host's terminals: a panel attaches with `pty.open` and lets go with
 * `pty.close`; when its port drops (the panel closed, or followed another tab without saying so) every
 * terminal no other panel still shows is detached, so the host keeps it alive for its detach window
 * and a panel that opens again reattaches. The terminal ids are not secrets: they name a terminal,
 * they do not open one to anyone but this extension.
 */
import type { ExtensionToHost } from '@bproxy/protocol';

export class TerminalAttachments<Port> {
  private readonly byPort = new Map<Port, Set<string>>();

  /** Notes what a panel's terminal message says about the terminals it shows. */
  note(port: Port, message: ExtensionToHost): void {
    if (message.type === 'pty.open') {
      const held = this.byPort.get(port) ?? new Set<string>();
      held.add(message.termId);
      this.byPort.set(port, held);
    } else if (message.type === 'pty.close' || message.type === 'pty.detach') {
      this.byPort.get(port)?.delete(message.termId);
    }
  }

  /** Forgets the panel; returns the terminals nobody shows any more (to detach). */
  release(port: Port): string[] {
    const held = this.byPort.get(port);
    this.byPort.delete(port);
    if (held === undefined) return [];
    const stillShown = new Set([...this.byPort.values()].flatMap((ids) => [...ids]));
    return [...held].filter((termId) => !stillShown.has(termId));
  }

  /** The panels showing `termId`: only they get its output, exit and errors. */
  panelsFor(termId: string): Port[] {
    return [...this.byPort].filter(([, ids]) => ids.has(termId)).map(([port]) => port);
  }
}
