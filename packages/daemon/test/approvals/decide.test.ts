import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_POLICY, SitePolicySchema, type SitePolicy } from '@bproxy/protocol';
import { ApprovalBook, type AskFacts } from '../../src/approvals/book';
import { builtInDefault, classDecision, isFirstVisit } from '../../src/approvals/decide';

const policy = (p: Partial<SitePolicy>): SitePolicy =>
  SitePolicySchema.parse({ ...DEFAULT_SITE_POLICY, ...p });

describe('approvals class decision', () => {
  it("the built-in defaults: every class asks in the user's Chrome but a first visit; in a launched browser only submit, send and delete", () => {
    for (const cls of ['submit', 'send', 'delete', 'upload', 'download', 'state_export'] as const)
      expect(builtInDefault(cls, 'user'), cls).toBe('ask');
    expect(builtInDefault('first_visit', 'user')).toBe('allow');
    expect(
      (['submit', 'send', 'delete', 'upload', 'download', 'state_export', 'first_visit'] as const).map(
        (cls) => builtInDefault(cls, 'launched'),
      ),
    ).toEqual(['ask', 'ask', 'ask', 'allow', 'allow', 'allow', 'allow']);
    // On: a class no entry names takes the built-in default of where the browser is.
    expect(classDecision(policy({}), 'https://a.test', 'submit', 'user')).toBe('ask');
    expect(classDecision(policy({}), 'https://a.test', 'upload', 'user')).toBe('ask');
    expect(classDecision(policy({}), 'https://a.test', 'state_export', 'launched')).toBe('allow');
    expect(classDecision(policy({}), 'https://a.test', 'first_visit', 'user')).toBe('allow');
  });

  it("takes the origin's own decision first, then the policy's class default; an unusable policy denies", () => {
    const p = policy({
      classes: { submit: 'deny', upload: 'ask' },
      origins: { 'https://shop.test': { classes: { submit: 'allow' } } },
    });
    expect(classDecision(p, 'https://shop.test', 'submit', 'user')).toBe('allow');
    expect(classDecision(p, 'https://other.test', 'submit', 'user')).toBe('deny');
    expect(classDecision(p, 'https://other.test', 'upload', 'launched')).toBe('ask');
    expect(classDecision(null, 'https://shop.test', 'download', 'launched')).toBe('deny');
  });

  it('calls a visit first when no entry of the policy names its origin, nor a pattern covers it', () => {
    const p = policy({
      origins: {
        'https://known.test': { rule: 'allow' },
        'https://remembered.test': { classes: { first_visit: 'allow' } },
        'https://*.corp.test': { rule: 'allow' },
      },
    });
    expect(isFirstVisit(p, 'https://new.test/a')).toBe(true);
    expect(isFirstVisit(p, 'https://known.test/a')).toBe(false);
    expect(isFirstVisit(p, 'https://remembered.test/')).toBe(false);
    expect(isFirstVisit(p, 'https://wiki.corp.test/')).toBe(false);
    // The pattern covers subdomains, not the host itself; a port makes another origin.
    expect(isFirstVisit(p, 'https://corp.test/')).toBe(true);
    expect(isFirstVisit(p, 'https://known.test:8443/')).toBe(true);
    expect(isFirstVisit(p, 'about:blank')).toBe(false);
  });
});

describe('approvals book', () => {
  const facts = (key: string): AskFacts => ({
    key,
    session: 's1',
    tab: 't1',
    action: 'click',
    class: 'submit',
    origin: 'https://shop.test',
    name: 'Pay',
    fields: [],
    at: 1,
  });

  it('holds an action until a person allows it, then lets the same action run exactly once', () => {
    const book = new ApprovalBook(() => 0.5);
    const first = book.attempt(facts('k'));
    expect(first.state).toBe('pending');
    if (first.state !== 'pending') return;
    // The same action asked again is the same approval, still pending.
    const again = book.attempt(facts('k'));
    expect(again.state === 'pending' && again.approval.id).toBe(first.approval.id);
    expect(book.pending().map((a) => a.id)).toEqual([first.approval.id]);
    // Another element is another approval; allowing one does not allow the other.
    const other = book.attempt(facts('k2'));
    expect(book.decide(first.approval.id, true)?.state).toBe('allowed');
    expect(book.decide(first.approval.id, true)).toBeNull();
    expect(book.attempt(facts('k2')).state).toBe('pending');
    expect(book.attempt(facts('k')).state).toBe('allowed');
    // Consumed: the next attempt asks again, under a new id.
    const third = book.attempt(facts('k'));
    expect(third.state).toBe('pending');
    expect(third.state === 'pending' && third.approval.id).not.toBe(first.approval.id);
    expect(other.state).toBe('pending');
  });

  it("tells the retry after a denial once, then asks again; a closed session's approvals go", () => {
    const book = new ApprovalBook(() => 0.25);
    const asked = book.attempt(facts('k'));
    if (asked.state !== 'pending') throw new Error('not pending');
    expect(book.decide(asked.approval.id, false)).not.toBeNull();
    expect(book.pending()).toEqual([]);
    expect(book.attempt(facts('k')).state).toBe('denied');
    expect(book.attempt(facts('k')).state).toBe('pending');
    book.dropSession('s1');
    expect(book.pending()).toEqual([]);
  });
});
