/**
 * The one pending-request helper of the extension's legs: a request settles exactly once — with its
 * answer, at its deadline, or when its channel is lost — and whatever comes for it afterwards is
 * dropped; an id that is already waiting is refused without sending.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PendingAnswers, type Unanswered } from '../../src/common/pending-answers';

type Answer = { id: string; text: string } | { id: string; unanswered: Unanswered };

function pending(deadlineMs?: number) {
  const sent: string[] = [];
  const answers = new PendingAnswers<Answer>({
    prefix: 'x',
    ...(deadlineMs === undefined ? {} : { deadlineMs }),
    unanswered: (id, why) => ({ id, unanswered: why }),
  });
  const ask = (id?: string) => answers.request((sent_) => void sent.push(sent_), id);
  return { answers, sent, ask };
}

describe('pending answers', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends each request under a fresh id and settles it with its own answer, once', async () => {
    const { answers, sent, ask } = pending(1_000);
    const first = ask();
    const second = ask();
    expect(sent).toEqual(['x1', 'x2']);
    expect(answers.answer('x2', { id: 'x2', text: 'two' })).toBe(true);
    expect(answers.answer('x2', { id: 'x2', text: 'again' })).toBe(false);
    expect(answers.answer('x1', { id: 'x1', text: 'one' })).toBe(true);
    expect(await first).toEqual({ id: 'x1', text: 'one' });
    expect(await second).toEqual({ id: 'x2', text: 'two' });
    expect(answers.size).toBe(0);
  });

  it('settles a request at its deadline, and ignores the answer that comes late', async () => {
    const { answers, ask } = pending(1_000);
    const asked = ask();
    await vi.advanceTimersByTimeAsync(999);
    expect(answers.has('x1')).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(await asked).toEqual({ id: 'x1', unanswered: { kind: 'deadline' } });
    expect(answers.answer('x1', { id: 'x1', text: 'late' })).toBe(false);
    expect(answers.size).toBe(0);
  });

  it('settles every waiting request when the channel is lost, and no deadline fires afterwards', async () => {
    const { answers, ask } = pending(1_000);
    const one = ask();
    const two = ask('chat-abc-1');
    answers.settleAll('the port closed');
    const lost = { kind: 'lost', why: 'the port closed' };
    expect(await one).toEqual({ id: 'x1', unanswered: lost });
    expect(await two).toEqual({ id: 'chat-abc-1', unanswered: lost });
    expect(vi.getTimerCount()).toBe(0);
    expect(answers.answer('x1', { id: 'x1', text: 'after the loss' })).toBe(false);
  });

  it('passes a caller’s id through, refuses a second request under an id that waits, and mints around it', async () => {
    const { answers, sent, ask } = pending();
    const passed = ask('x1');
    expect(await ask('x1')).toEqual({ id: 'x1', unanswered: { kind: 'duplicate' } });
    expect(sent).toEqual(['x1']);
    void ask();
    expect(sent).toEqual(['x1', 'x2']);
    answers.answer('x1', { id: 'x1', text: 'for the caller' });
    expect(await passed).toEqual({ id: 'x1', text: 'for the caller' });
  });

  it('waits without a deadline when none is set, and settles as lost when sending throws', async () => {
    const { answers, ask } = pending();
    const waiting = ask();
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(answers.has('x1')).toBe(true);
    const thrown = answers.request(() => {
      throw new Error('Attempting to use a disconnected port object');
    });
    expect(await thrown).toEqual({
      id: 'x2',
      unanswered: { kind: 'lost', why: 'Attempting to use a disconnected port object' },
    });
    expect(answers.has('x2')).toBe(false);
    answers.answer('x1', { id: 'x1', text: 'at last' });
    expect(await waiting).toEqual({ id: 'x1', text: 'at last' });
  });
});
