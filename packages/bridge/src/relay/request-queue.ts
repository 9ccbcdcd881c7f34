/**
 * Requests a tool sent while its browser was away, held until the browser is back. Bounded both
 * ways: at most `limit` requests (a tool stuck in a loop cannot grow it without end), and each one
 * waits at most `timeoutMs` — past that it is answered with a CDP error and will never be sent later,
 * so a tool never sees a request it gave up on run afterwards.
 */
import type { UpstreamRequest } from './cdp-frames';

interface Entry {
  readonly request: UpstreamRequest;
  readonly timer: ReturnType<typeof setTimeout>;
}

export interface RequestQueueOptions {
  readonly limit: number;
  readonly timeoutMs: number;
  /** Called when a request's wait ran out; it has left the queue already. */
  readonly onExpired: (request: UpstreamRequest) => void;
}

export class RequestQueue {
  private entries: Entry[] = [];

  constructor(private readonly options: RequestQueueOptions) {}

  get size(): number {
    return this.entries.length;
  }

  /** False when the queue is full: the caller answers the request with an error at once. */
  push(request: UpstreamRequest): boolean {
    if (this.entries.length >= this.options.limit) return false;
    const timer = setTimeout(() => {
      this.entries = this.entries.filter((entry) => entry.request !== request);
      this.options.onExpired(request);
    }, this.options.timeoutMs);
    this.entries.push({ request, timer });
    return true;
  }

  /** Everything waiting, oldest first; the queue is empty afterwards. */
  drain(): UpstreamRequest[] {
    const entries = this.entries;
    this.entries = [];
    for (const entry of entries) clearTimeout(entry.timer);
    return entries.map((entry) => entry.request);
  }
}
