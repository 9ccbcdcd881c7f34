/**
 * What the Activity says to a person: the action in words with the element's name apart (set in bold),
 * which kind of agent acted, an attempt refused while paused, a failure with the handles in its message
 * put in words — never el4, t1 or a pacing figure's jargon.
 */
import { TAKE_OVER_REASON, type ActivityEntry } from '@bproxy/protocol';
import { describe, expect, it } from 'vitest';
import { agentWords, entryWords, type Words } from '../../src/panel/activity-words';

const base = {
  seq: 1,
  at: 0,
  kind: 'action',
  session: 'abcdefghijklmnopqrstuvwxyz',
  tab: 't1',
  tabId: 5,
} as unknown as ActivityEntry;
const flat = (words: Words) => words.map((w) => (typeof w === 'string' ? w : `**${w.name}**`)).join('');

describe('activity in words', () => {
  it('says what was done to which element', () => {
    const clicked = entryWords({
      ...base,
      action: 'click',
      target: { ref: 'el4', name: 'button "Add Mug to cart"' },
    });
    expect(flat(clicked.what)).toBe('Clicked **Add Mug to cart**');
    expect(flat(entryWords({ ...base, action: 'click', target: { ref: 'el4', name: 'button' } }).what)).toBe(
      'Clicked a button',
    );
    expect(flat(entryWords({ ...base, action: 'click', target: { ref: '#buy' } }).what)).toBe(
      'Clicked an element',
    );
    expect(flat(entryWords({ ...base, action: 'snapshot' }).what)).toBe('Read the page');
    expect(entryWords({ ...base, action: 'click', waitedMs: 800 }).detail).toBe(
      'waited 0.8 s to act at a person’s pace',
    );
  });

  it('names the agent, and says an attempt refused while paused', () => {
    expect(agentWords({ kind: 'cli' })).toBe('CLI');
    expect(agentWords({ kind: 'terminal' })).toBe('Terminal');
    expect(agentWords({ kind: 'chat' })).toBe('Chat');
    expect(agentWords({ kind: 'mcp', name: 'Claude Desktop' })).toBe('MCP · Claude Desktop');
    expect(agentWords(undefined)).toBe('An agent');
    const refused = entryWords({
      ...base,
      action: 'click',
      agent: { kind: 'cli' },
      target: { ref: 'el4', name: 'button "Pay"' },
      error: { code: 'HUMAN_REQUIRED', message: 'session abcdefghijklmnopqrstuvwxyz is paused' },
    });
    expect(flat(refused.what)).toBe('CLI is waiting: click on **Pay** refused, paused');
  });

  it('says a take-over in words for the person', () => {
    expect(entryWords({ ...base, kind: 'pause', reason: TAKE_OVER_REASON }).detail).toBe(
      'You took over this tab.',
    );
  });

  it('puts a failure’s handles in words', () => {
    const failed = entryWords({
      ...base,
      action: 'click',
      target: { ref: 'el4' },
      error: {
        code: 'ELEMENT_HANDLE_STALE',
        message: 'el4 was read on a page that is no longer shown in t1',
      },
    });
    expect(flat(failed.what)).toBe('Could not click on an element');
    expect(failed.detail).toBe('the element was read on a page that is no longer shown in the tab');
  });
});
