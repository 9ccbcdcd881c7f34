/**
 * The Terminal view's hold on its host terminal: attaching to another terminal detaches the one shown
 * (a tab change while the view was hidden included), and a native host that started anew is told about
 * the terminal again — when its status comes back to connected, or when it answers that it does not
 * know the terminal.
 */
import { describe, expect, it } from 'vitest';
import { TerminalAttachment } from '../../src/panel/terminal-attachment';

function attachment(): { held: TerminalAttachment; detached: string[]; reopened: () => number } {
  const detached: string[] = [];
  let reopens = 0;
  const held = new TerminalAttachment(
    (message) => detached.push(message.termId),
    () => reopens++,
  );
  return { held, detached, reopened: () => reopens };
}

const unknownTerminal = (termId: string) =>
  ({
    type: 'error',
    termId,
    code: 'BAD_REQUEST',
    message: `no terminal ${termId} is open: send pty.open first`,
  }) as const;

describe('the terminal a view shows', () => {
  it('detaches the terminal shown before when it attaches to another', () => {
    const { held, detached } = attachment();
    held.attach('term-1a');
    // The view was hidden when the tab changed: show() attaches the new tab's terminal directly.
    held.attach('term-2b');
    expect(detached).toEqual(['term-1a']);
    expect(held.termId).toBe('term-2b');
    held.attach('term-2b');
    expect(detached).toEqual(['term-1a']);
    held.release();
    expect(detached).toEqual(['term-1a', 'term-2b']);
    expect(held.termId).toBeNull();
  });

  it('opens the terminal again when the host status leaves connected and comes back', () => {
    const { held, reopened } = attachment();
    held.attach('term-1a');
    // A host not started yet is not one that went away: the first pty.open starts it.
    held.hostStatus('unavailable');
    held.hostStatus('connected');
    expect(reopened()).toBe(0);
    held.hostStatus('unavailable');
    expect(reopened()).toBe(0);
    held.hostStatus('connected');
    expect(reopened()).toBe(1);
    held.hostStatus('connected');
    expect(reopened()).toBe(1);
  });

  it('opens the terminal again when the host answers that it does not know it', () => {
    const { held, reopened } = attachment();
    held.attach('term-1a');
    expect(held.hostError(unknownTerminal('term-1a'))).toBe(true);
    expect(reopened()).toBe(1);
    // Another terminal's error, or another failure, is the view's to show.
    expect(held.hostError(unknownTerminal('term-9z'))).toBe(false);
    expect(
      held.hostError({ type: 'error', termId: 'term-1a', code: 'OVERLOADED', message: 'too many' }),
    ).toBe(false);
    expect(reopened()).toBe(1);
  });

  it('opens the terminal again once the host is back after the worker could not reach it', () => {
    const { held, reopened } = attachment();
    held.attach('term-1a');
    const unreachable = {
      type: 'error',
      termId: 'term-1a',
      code: 'NO_NATIVE_HOST',
      message: 'the native host is not available',
    } as const;
    expect(held.hostError(unreachable)).toBe(false);
    held.hostStatus('connected');
    expect(reopened()).toBe(1);
  });
});
