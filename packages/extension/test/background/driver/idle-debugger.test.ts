import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdleDebugger } from '../../../src/background/driver/idle-debugger';
import { WorkerLog } from '../../../src/background/log';

function setup(dialogOpen = false) {
  const attached = new Set<number>([7]);
  const calls: string[] = [];
  const dialogs = {
    isAttached: (tabId: number) => attached.has(tabId),
    current: async () => (dialogOpen ? { type: 'alert', message: 'hi' } : null),
    detachIdle: async (tabId: number) => {
      calls.push(`detach ${tabId}`);
      attached.delete(tabId);
    },
    ensureAttached: async (tabId: number) => {
      calls.push(`attach ${tabId}`);
      attached.add(tabId);
      return true;
    },
  };
  const idle = new IdleDebugger(dialogs, () => true, new WorkerLog(50, Date.now, false));
  return { idle, attached, calls };
}

describe('the debugger leaving idle tabs', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('detaches once the period passed with no action, and attaches again before the next one', async () => {
    const { idle, attached, calls } = setup();
    idle.setPeriod(1_000);
    await idle.begin(7);
    idle.end(7);
    await vi.advanceTimersByTimeAsync(999);
    expect(attached.has(7)).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual(['detach 7']);
    await idle.begin(7);
    expect(calls).toEqual(['detach 7', 'attach 7']);
    expect(attached.has(7)).toBe(true);
  });

  it('never detaches under a running action, and restarts the period when the last one ends', async () => {
    const { idle, calls } = setup();
    idle.setPeriod(1_000);
    await idle.begin(7);
    await idle.begin(7);
    idle.end(7);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(calls).toEqual([]);
    idle.end(7);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toEqual(['detach 7']);
  });

  it('keeps the debugger on a tab with a dialog open, without a period, and on a forgotten tab', async () => {
    const withDialog = setup(true);
    withDialog.idle.setPeriod(1_000);
    withDialog.idle.touch(7);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(withDialog.calls).toEqual([]);

    const noPeriod = setup();
    noPeriod.idle.touch(7);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(noPeriod.calls).toEqual([]);

    const forgotten = setup();
    forgotten.idle.setPeriod(1_000);
    forgotten.idle.touch(7);
    forgotten.idle.forget(7);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(forgotten.calls).toEqual([]);
  });
});
