/**
 * Idempotency by request id. While a request is in flight, the same id with the same payload joins it;
 * after it completed, the recorded answer is returned again; the same id with another payload is
 * refused. Completed answers are kept for 10 minutes, at most 10,000 of them and 64 MiB in all
 * (screenshots are large), the oldest dropped first.
 */
import type { BproxyRequest, BproxyResponse } from '@bproxy/protocol';

interface LedgerEntry {
  fingerprint: string;
  answer: Promise<BproxyResponse>;
  completedMono: number | null;
  bytes: number;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/** The parts of a request that make it "the same request" (the deadline may differ on a retry). */
export function fingerprint(request: BproxyRequest): string {
  return canonical({ action: request.action, session: request.session ?? null, params: request.params });
}

export type LedgerLookup =
  { kind: 'new' } | { kind: 'same'; answer: Promise<BproxyResponse> } | { kind: 'conflict' };

export class AnswerLedger {
  private readonly entries = new Map<string, LedgerEntry>();
  private completed = 0;
  private bytes = 0;

  constructor(
    private readonly monotonic: () => number,
    private readonly ttlMs = 10 * 60_000,
    private readonly maxCompleted = 10_000,
    private readonly maxBytes = 64 * 1024 * 1024,
  ) {}

  lookup(id: string, print: string): LedgerLookup {
    this.prune();
    const entry = this.entries.get(id);
    if (!entry) return { kind: 'new' };
    return entry.fingerprint === print ? { kind: 'same', answer: entry.answer } : { kind: 'conflict' };
  }

  record(id: string, print: string, answer: Promise<BproxyResponse>): void {
    const entry: LedgerEntry = { fingerprint: print, answer, completedMono: null, bytes: 0 };
    this.entries.set(id, entry);
    void answer.then((response) => {
      entry.completedMono = this.monotonic();
      entry.bytes = JSON.stringify(response).length;
      this.completed++;
      this.bytes += entry.bytes;
    });
  }

  get size(): number {
    return this.entries.size;
  }

  private prune(): void {
    const cutoff = this.monotonic() - this.ttlMs;
    // Map iteration is insertion order: the oldest entries come first, so stop at the first keeper.
    for (const [id, e] of this.entries) {
      if (e.completedMono === null) continue;
      if (e.completedMono > cutoff && this.completed <= this.maxCompleted && this.bytes <= this.maxBytes)
        break;
      this.entries.delete(id);
      this.completed--;
      this.bytes -= e.bytes;
    }
  }
}
