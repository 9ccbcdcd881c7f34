import { describe, expect, it } from 'vitest';
import type { SessionId, TabHandle } from '@bproxy/protocol';
import { actionDiffParams } from '../../src/actions/action-diff';
import { SnapshotMemory } from '../../src/sessions/snapshot-memory';

const s1 = 's1' as SessionId;
const s2 = 's2' as SessionId;
const t1 = 't1' as TabHandle;
const t2 = 't2' as TabHandle;

describe('the scope of an action diff', () => {
  it("reads the page with the maxChars of the tab's latest whole-page diff read, else the default", () => {
    const memory = new SnapshotMemory();
    expect(actionDiffParams(memory.wholeCap(s1, t1))).toEqual({ diff: true });
    memory.setWholeCap(s1, t1, 1_000_000);
    expect(actionDiffParams(memory.wholeCap(s1, t1))).toEqual({ diff: true, maxChars: 1_000_000 });
    // Another tab, another session: their own.
    expect(actionDiffParams(memory.wholeCap(s1, t2))).toEqual({ diff: true });
    expect(actionDiffParams(memory.wholeCap(s2, t1))).toEqual({ diff: true });
    // Back to the default cap.
    memory.setWholeCap(s1, t1, null);
    expect(actionDiffParams(memory.wholeCap(s1, t1))).toEqual({ diff: true });
  });

  it('is forgotten with the tab and with the session', () => {
    const memory = new SnapshotMemory();
    memory.setWholeCap(s1, t1, 50_000);
    memory.setWholeCap(s1, t2, 60_000);
    memory.forgetTab(s1, t1);
    expect(memory.wholeCap(s1, t1)).toBeUndefined();
    expect(memory.wholeCap(s1, t2)).toBe(60_000);
    memory.forgetSession(s1);
    expect(memory.wholeCap(s1, t2)).toBeUndefined();
  });
});
