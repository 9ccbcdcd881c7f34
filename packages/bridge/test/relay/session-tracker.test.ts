import { describe, expect, it } from 'vitest';
import { SessionTracker } from '../../src/relay/session-tracker';

const attach = (tracker: SessionTracker, sessionId: string, targetId: string, parent?: string): void => {
  tracker.attached({ sessionId, targetInfo: { targetId } }, parent);
};

describe('the sessions a tool holds', () => {
  it('hands them back innermost first', () => {
    const tracker = new SessionTracker();
    attach(tracker, 'page', 'P');
    attach(tracker, 'frame', 'F', 'page');
    attach(tracker, 'worker', 'W', 'frame');
    attach(tracker, 'other', 'O');
    const order = tracker.takeAllInnermostFirst().map((s) => s.sessionId);
    expect(order.indexOf('worker')).toBeLessThan(order.indexOf('frame'));
    expect(order.indexOf('frame')).toBeLessThan(order.indexOf('page'));
    expect(tracker.takeAllInnermostFirst()).toEqual([]);
  });

  it('forgets a detached session with its children', () => {
    const tracker = new SessionTracker();
    attach(tracker, 'page', 'P');
    attach(tracker, 'frame', 'F', 'page');
    attach(tracker, 'other', 'O');
    tracker.detached({ sessionId: 'page', targetId: 'P' });
    expect(tracker.takeAllInnermostFirst().map((s) => s.sessionId)).toEqual(['other']);
  });

  it('ignores events without a session or target id', () => {
    const tracker = new SessionTracker();
    expect(tracker.attached({ sessionId: 'x' }, undefined)).toBeUndefined();
    expect(tracker.takeAllInnermostFirst()).toEqual([]);
  });
});
