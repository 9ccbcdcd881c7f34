import { describe, expect, it } from 'vitest';
import type { BproxyResponse } from '@bproxy/protocol';
import { AnswerLedger } from '../../src/http/answer-ledger';

const answer = (data: unknown): Promise<BproxyResponse> => Promise.resolve({ id: 'x', ok: true, data });
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('AnswerLedger', () => {
  it('joins, replays and refuses by fingerprint', async () => {
    const ledger = new AnswerLedger(() => 0);
    expect(ledger.lookup('a', 'p1')).toEqual({ kind: 'new' });
    ledger.record('a', 'p1', answer(1));
    expect(ledger.lookup('a', 'p1').kind).toBe('same');
    expect(ledger.lookup('a', 'p2')).toEqual({ kind: 'conflict' });
  });

  it('forgets completed answers after the TTL', async () => {
    let now = 0;
    const ledger = new AnswerLedger(() => now, 1_000);
    ledger.record('a', 'p', answer(1));
    await settle();
    now = 1_001;
    expect(ledger.lookup('a', 'p')).toEqual({ kind: 'new' });
  });

  it('drops the oldest answers past its byte budget, keeping the newest', async () => {
    const ledger = new AnswerLedger(() => 0, 60_000, 10_000, 3_000);
    ledger.record('a', 'p', answer('x'.repeat(2_000)));
    ledger.record('b', 'p', answer('y'.repeat(2_000)));
    await settle();
    expect(ledger.lookup('b', 'p').kind).toBe('same');
    expect(ledger.lookup('a', 'p')).toEqual({ kind: 'new' });
  });

  it('never drops an answer still in flight', async () => {
    const ledger = new AnswerLedger(() => 0, 60_000, 0, 0);
    ledger.record('a', 'p', new Promise(() => undefined));
    ledger.record('b', 'p', answer(1));
    await settle();
    expect(ledger.lookup('a', 'p').kind).toBe('same');
  });
});
