/**
 * Requests waiting for their answer, by id — the one helper every leg of the extension uses (panel →
 * worker, worker → daemon, worker → native host). Each request settles exactly once: with its answer,
 * at its deadline, or when the channel it went out on is lost (`settleAll`). An answer that comes
 * after that — late, or a second one for the same id — finds nobody waiting and is dropped. An id may
 * come from the caller (a request passed on under the id its sender chose) or be minted here; while
 * one request waits under an id, another under the same id is refused at once and never sent.
 */

/** Why a request got no answer from the other side. */
export type Unanswered =
  /** Its deadline passed. */
  | { kind: 'deadline' }
  /** Another request was already waiting under the same id; this one was not sent. */
  | { kind: 'duplicate' }
  /** The channel went away before the answer came (`why` says how). */
  | { kind: 'lost'; why: string };

export interface PendingAnswersOptions<A> {
  /** Minted ids are this prefix and a counter (`x1`, `x2`, …). */
  prefix: string;
  /** How long a request waits for its answer; none when left out. */
  deadlineMs?: number;
  /** The answer a request settles with when none came (deadline, duplicate id, channel lost). */
  unanswered: (id: string, why: Unanswered) => A;
}

export class PendingAnswers<A> {
  private readonly waiting = new Map<string, (answer: A) => void>();
  private counter = 0;

  constructor(private readonly opts: PendingAnswersOptions<A>) {}

  /** A fresh id, never one a request is waiting under (even one a caller chose). */
  mint(): string {
    let id: string;
    do id = `${this.opts.prefix}${++this.counter}`;
    while (this.waiting.has(id));
    return id;
  }

  /**
   * Waits for the answer to `id` and sends the request with `send(id)`, in this turn (requests keep the
   * order they were made in). A `send` that throws settles the request as lost.
   */
  request(send: (id: string) => void, id: string = this.mint()): Promise<A> {
    if (this.waiting.has(id)) return Promise.resolve(this.opts.unanswered(id, { kind: 'duplicate' }));
    return new Promise<A>((resolve) => {
      const timer =
        this.opts.deadlineMs === undefined
          ? null
          : setTimeout(() => settle(this.opts.unanswered(id, { kind: 'deadline' })), this.opts.deadlineMs);
      const settle = (answer: A) => {
        if (timer !== null) clearTimeout(timer);
        this.waiting.delete(id);
        resolve(answer);
      };
      this.waiting.set(id, settle);
      try {
        send(id);
      } catch (error) {
        settle(
          this.opts.unanswered(id, {
            kind: 'lost',
            why: error instanceof Error ? error.message : String(error),
          }),
        );
      }
    });
  }

  /** Settles the request waiting under `id` with `answer`; false when none waits (late, or answered). */
  answer(id: string, answer: A): boolean {
    const settle = this.waiting.get(id);
    if (settle === undefined) return false;
    settle(answer);
    return true;
  }

  /** The channel is gone: every waiting request settles now, as lost for `why`. */
  settleAll(why: string): void {
    for (const [id, settle] of [...this.waiting]) settle(this.opts.unanswered(id, { kind: 'lost', why }));
  }

  /** Whether a request waits under `id`. */
  has(id: string): boolean {
    return this.waiting.has(id);
  }

  get size(): number {
    return this.waiting.size;
  }
}
