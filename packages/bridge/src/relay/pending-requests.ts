/**
 * The requests a relay sent down and awaits answers for, under ids of the relay's own. A tool's
 * request keeps the tool's id to be answered with; a request of the bridge's own (the bootstrap,
 * resuming a paused target) resolves a promise here and is never seen by the tool.
 */
import { errorResponse, successResponse } from './cdp-frames';

export type PendingEntry =
  | { kind: 'tool'; id: number; sessionId: string | undefined; closesBrowser: boolean }
  | { kind: 'bridge'; resolve: (text: string) => void; reject: (error: Error) => void };

export class PendingRequests {
  private nextId = 1;
  private readonly entries = new Map<number, PendingEntry>();

  /** The downstream id for a tool's request. */
  forTool(id: number, sessionId: string | undefined, closesBrowser: boolean): number {
    const own = this.nextId++;
    this.entries.set(own, { kind: 'tool', id, sessionId, closesBrowser });
    return own;
  }

  /** The downstream id for a request of the bridge's own, and its answer (text) within `timeoutMs`. */
  forBridge(method: string, timeoutMs: number): { id: number; answer: Promise<string> } {
    const id = this.nextId++;
    const answer = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.entries.delete(id);
        reject(new Error(`${method}: no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.entries.set(id, {
        kind: 'bridge',
        resolve: (text) => {
          clearTimeout(timer);
          resolve(text);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
    });
    return { id, answer };
  }

  take(id: number): PendingEntry | undefined {
    const entry = this.entries.get(id);
    this.entries.delete(id);
    return entry;
  }

  /** The browser closed as asked, perhaps before answering: the answers it owed, as successes. */
  takeBrowserCloses(): string[] {
    const answers: string[] = [];
    for (const [id, entry] of this.entries) {
      if (entry.kind === 'tool' && entry.closesBrowser) {
        this.entries.delete(id);
        answers.push(successResponse(entry.id, entry.sessionId));
      }
    }
    return answers;
  }

  /** Fails everything: bridge requests reject; the CDP errors owed to the tool are returned. */
  failAll(message: string): string[] {
    const entries = [...this.entries.values()];
    this.entries.clear();
    const answers: string[] = [];
    for (const entry of entries) {
      if (entry.kind === 'bridge') entry.reject(new Error(message));
      else answers.push(errorResponse(entry.id, message, entry.sessionId));
    }
    return answers;
  }
}
