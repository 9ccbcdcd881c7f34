/**
 * What waits for a person reaches them: the daemon pushes the approvals still to decide to every
 * connected extension (after its welcome, and whenever the book changes — asked, decided, expired, its
 * session closed), whichever driver's session asked, and the held action to the Activity feed. Enter pressed with no target is judged on the
 * element the page says is focused. An approval nobody decides expires.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalsMessageSchema, BproxyForwardedRequest, SitePolicy } from '@bproxy/protocol';
import type { z } from 'zod';
import { ApprovalBook } from '../../src/approvals/book';
import { memoryPolicy } from '../../src/policy/site-policy';
import { FakeExtension, okData, startDaemon, until, type TestDaemon } from '../harness';

const ORIGIN = 'http://shop.test';
const ASKING: SitePolicy = {
  version: 1,
  default: 'allow',
  origins: {},
  classes: { submit: 'ask', send: 'ask', delete: 'ask' },
};

type Pushed = z.infer<typeof ApprovalsMessageSchema>;

let daemon: TestDaemon | undefined;
let ext: FakeExtension | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await ext?.drop();
  await daemon?.close();
  ext = undefined;
  daemon = undefined;
});

/** A fake browser where a click on "#pay" and Enter in the focused card field mean pay. */
async function shop(d: TestDaemon): Promise<{ ext: FakeExtension; reads: BproxyForwardedRequest[] }> {
  const fake = new FakeExtension(d);
  const reads: BproxyForwardedRequest[] = [];
  fake.behaviour = (req) => {
    if (req.action === 'tab.open')
      return { ok: true, data: { tabId: 7, url: `${ORIGIN}/checkout`, title: 'Checkout' } };
    if (req.action === 'inspect' && req.params.approval !== undefined) {
      reads.push(req);
      const base = fake.defaultAnswer(req);
      if (base === 'drop' || !base.ok) return base;
      const pays =
        JSON.stringify(req.params.target ?? null).includes('#pay') ||
        (req.params.target === undefined && req.params.approval === 'enter');
      const sensitive = pays
        ? { class: 'submit', name: 'Place order', why: 'payment fields (cc-number)', fields: [] }
        : { name: 'Search', fields: [] };
      return { ok: true, data: { ...(base.data as object), sensitive } };
    }
    return fake.defaultAnswer(req);
  };
  await fake.connect();
  return { ext: fake, reads };
}

const pushes = (fake: FakeExtension): Pushed[] =>
  fake.messages.filter((m): m is Pushed => m.type === 'approvals');

describe('approvals pushed to the person', () => {
  it('pushes what waits after the welcome and on every change (and the held action to the feed), and nothing once decided or its session closed', async () => {
    daemon = await startDaemon({ sitePolicy: memoryPolicy(ASKING) });
    const s = await shop(daemon);
    ext = s.ext;
    await until(() => pushes(s.ext).length > 0, 'the first push');
    expect(pushes(s.ext)[0]?.pending).toEqual([]);
    const { session } = okData<{ session: string }>(
      await daemon.call('tab.open', { url: `${ORIGIN}/checkout` }),
    );
    const held = await daemon.call('click', { target: { selector: '#pay' } }, session);
    const id = held.ok ? '' : String(held.error.details?.approval);
    await until(() => pushes(s.ext).at(-1)?.pending[0]?.id === id, 'the approval pushed');
    // The Activity feed of the browser holding the tab hears of it too, though nothing reached the tab.
    await until(
      () =>
        s.ext.messages.some(
          (m) =>
            m.type === 'activity' &&
            m.entry.action === 'click' &&
            m.entry.error?.code === 'APPROVAL_REQUIRED',
        ),
      'the activity entry',
    );
    expect(pushes(s.ext).at(-1)?.pending).toMatchObject([
      { id, class: 'submit', name: 'Place order', origin: ORIGIN, action: 'click', state: 'pending' },
    ]);
    const handler = daemon.server.deps.drivers.userRequests;
    const record = daemon.server.deps.clients.all().find((c) => c.kind === 'extension');
    if (!handler || !record) throw new Error('no extension');
    await handler(record, { kind: 'approval_decide', id, decision: 'allow_once' });
    // Allowed: it waits for the agent's retry, no longer for the person.
    await until(() => pushes(s.ext).at(-1)?.pending.length === 0, 'none left to decide');

    const again = await daemon.call('click', { target: { selector: '#pay' } }, session);
    expect(again.ok).toBe(true);
    const next = await daemon.call('click', { target: { selector: '#pay' } }, session);
    expect(next.ok ? '' : next.error.code).toBe('APPROVAL_REQUIRED');
    await until(() => pushes(s.ext).at(-1)?.pending.length === 1, 'the next one pushed');
    await daemon.call('session.close', {}, session);
    await until(() => pushes(s.ext).at(-1)?.pending.length === 0, 'the closed session’s approval gone');
  });

  it('judges Enter with no target on the focused element (the page reads it), and holds it', async () => {
    daemon = await startDaemon({ sitePolicy: memoryPolicy(ASKING) });
    const s = await shop(daemon);
    ext = s.ext;
    const { session } = okData<{ session: string }>(
      await daemon.call('tab.open', { url: `${ORIGIN}/checkout` }),
    );
    const res = await daemon.call('press', { key: 'Enter' }, session);
    expect(res.ok ? 'ok' : res.error.code).toBe('APPROVAL_REQUIRED');
    expect(s.reads.map((r) => r.params)).toEqual([{ approval: 'enter' }]);
    expect(s.ext.received.some((r) => r.action === 'press')).toBe(false);
    // Another key is no submit: not read, and forwarded (whatever the fake answers).
    await daemon.call('press', { key: 'a' }, session);
    expect(s.ext.received.some((r) => r.action === 'press')).toBe(true);
    expect(s.reads).toHaveLength(1);
  });
});

describe('the approval book', () => {
  it('forgets what nobody decided, and an allowance nobody used, after the expiry; and says so', () => {
    vi.useFakeTimers();
    let now = 1_000_000;
    const book = new ApprovalBook(() => 0.5, { now: () => now, expireMs: 60_000 });
    let changes = 0;
    book.onChange(() => changes++);
    const facts = {
      key: 'k',
      session: 's',
      tab: 't1',
      action: 'click',
      class: 'submit' as const,
      origin: ORIGIN,
      name: 'Pay',
      fields: [],
      at: now,
    };
    const first = book.attempt(facts);
    expect(first.state).toBe('pending');
    expect(changes).toBe(1);
    now += 59_999;
    vi.advanceTimersByTime(59_999);
    expect(book.pending()).toHaveLength(1);
    now += 1;
    vi.advanceTimersByTime(1);
    expect(changes).toBe(2);
    expect(book.pending()).toEqual([]);
    // Allowed, then not used in time: the retry asks again.
    const second = book.attempt(facts);
    if (second.state !== 'pending') throw new Error('not pending');
    book.decide(second.approval.id, true);
    now += 60_000;
    vi.advanceTimersByTime(60_000);
    expect(book.pending()).toEqual([]);
    expect(book.attempt(facts).state).toBe('pending');
  });
});
