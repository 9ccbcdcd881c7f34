/**
 * Which terminals a closed panel leaves detached: those it opened and did not close, unless another
 * panel still shows them.
 */
import { describe, expect, it } from 'vitest';
import { TerminalAttachments } from '../../../src/background/host/terminal-attachments';

const open = (termId: string) => ({ type: 'pty.open', termId, cols: 80, rows: 24 }) as const;

describe('terminal attachments', () => {
  it('detaches what a closed panel showed and did not close', () => {
    const attachments = new TerminalAttachments<string>();
    attachments.note('panel', open('a'));
    attachments.note('panel', open('b'));
    attachments.note('panel', { type: 'pty.close', termId: 'b' });
    attachments.note('panel', { type: 'pty.input', termId: 'a', data: 'x' });
    expect(attachments.release('panel')).toEqual(['a']);
    expect(attachments.release('panel')).toEqual([]);
  });

  it('keeps attached what another panel still shows', () => {
    const attachments = new TerminalAttachments<string>();
    attachments.note('one', open('a'));
    attachments.note('two', open('a'));
    expect(attachments.release('one')).toEqual([]);
    expect(attachments.release('two')).toEqual(['a']);
  });

  it('forgets a terminal the panel detached itself (it followed another tab)', () => {
    const attachments = new TerminalAttachments<string>();
    attachments.note('panel', open('a'));
    attachments.note('panel', { type: 'pty.detach', termId: 'a' });
    attachments.note('panel', open('b'));
    expect(attachments.release('panel')).toEqual(['b']);
  });
});
