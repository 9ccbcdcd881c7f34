/**
 * Approvals in a person's words: the panel's card line for what would happen, the Activity's entries
 * for a held action and for a denied one, and the chat's line under a held tool call.
 */
import type { ActivityEntry, PendingApproval } from '@bproxy/protocol';
import { describe, expect, it } from 'vitest';
import { approvalWhat, heldWords } from '../../src/panel/approval-words';
import { entryWords, type Words } from '../../src/panel/activity-words';

const flat = (words: Words) => words.map((w) => (typeof w === 'string' ? w : `**${w.name}**`)).join('');

const approval = {
  id: 'ap-1x',
  session: 's',
  tab: 't1',
  action: 'click',
  class: 'submit',
  origin: 'https://shop.example',
  name: 'Place order',
  fields: [],
  at: 0,
  state: 'pending',
} satisfies PendingApproval;

const entry = (message: string) =>
  ({
    seq: 1,
    at: 0,
    kind: 'action',
    session: 'abcdefghijklmnopqrstuvwxyz',
    tab: 't1',
    tabId: 5,
    action: 'click',
    agent: { kind: 'cli' },
    target: { ref: 'el4', name: 'button "Place order"' },
    error: { code: 'APPROVAL_REQUIRED', message },
  }) as unknown as ActivityEntry;

describe('approvals in words', () => {
  it('says what exactly would happen', () => {
    expect(approvalWhat(approval)).toBe('Click “Place order”');
    expect(approvalWhat({ ...approval, action: 'press' })).toBe('Press Enter in “Place order”');
    expect(approvalWhat({ ...approval, action: 'upload', name: '' })).toBe('Attach a file to');
  });

  it('says in the Activity that an agent asks first, or that the person denied it', () => {
    const asked = entryWords(
      entry(`click on "Place order" (pay or submit) at https://shop.example waits for a person's decision`),
    );
    expect(flat(asked.what)).toBe('CLI asks you first: click on **Place order**');
    expect(asked.detail).toContain('Allow once, Always on this site or Deny');
    const denied = entryWords(
      entry('a person denied click on "Place order" (pay or submit); it was not run'),
    );
    expect(flat(denied.what)).toBe('You denied: click on **Place order**');
    expect(denied.detail).toBe('Not run.');
  });

  it('says in the chat what waits for the person, without the code', () => {
    const line = heldWords(
      `APPROVAL_REQUIRED: click on "Send" (send) at https://mail.example waits for a person's decision in the side panel; it was not run.`,
    );
    expect(line).toBe(
      'Waiting for your decision — click on "Send" (send) at https://mail.example: not run until you choose Allow once, Always on this site or Deny at the top of this panel.',
    );
    expect(heldWords('APPROVAL_REQUIRED: a person denied click on "Send"')).toBe(
      'You denied this action: it was not run.',
    );
  });
});
