import type { DriverResponseMessage } from '@bproxy/protocol';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TABLE_OPTIONS, ExecutedTable } from '../../../src/background/driver/executed-table';
import { MemoryStorage } from '../../helpers/fakes';

const ok = (id: string, data: unknown = { n: 1 }): DriverResponseMessage => ({
  type: 'response',
  id,
  ok: true,
  data,
});

function counting(response: (id: string) => DriverResponseMessage = (id) => ok(id)) {
  const calls: boolean[] = [];
  let id = '';
  const execute = async (resumed: boolean) => {
    calls.push(resumed);
    return response(id);
  };
  return { calls, execute: (forId: string) => ((id = forId), execute) };
}

describe('executed-request table', () => {
  it('answers a replayed id with the recorded response and does not execute again', async () => {
    const table = new ExecutedTable(new MemoryStorage());
    const run = counting();
    const first = await table.run('a1', run.execute('a1'), false);
    const again = await table.run('a1', run.execute('a1'), false);
    expect(run.calls).toEqual([false]);
    expect(first.replayed).toBe(false);
    expect(again).toEqual({ response: first.response, replayed: true });
  });

  it('joins a replay that arrives while the first execution still runs', async () => {
    const table = new ExecutedTable(new MemoryStorage());
    let release: () => void = () => {};
    let calls = 0;
    const execute = async () => {
      calls += 1;
      await new Promise<void>((r) => (release = r));
      return ok('b1');
    };
    const first = table.run('b1', execute, false);
    const second = table.run('b1', execute, false);
    await new Promise((r) => setTimeout(r, 0));
    release();
    expect(await second).toEqual(await first);
    expect(calls).toBe(1);
  });

  it('survives a worker restart: a new table over the same storage replays the record', async () => {
    const storage = new MemoryStorage();
    const run = counting();
    await new ExecutedTable(storage).run('c1', run.execute('c1'), false);
    const restarted = new ExecutedTable(storage);
    const replay = await restarted.run('c1', run.execute('c1'), false);
    expect(replay.replayed).toBe(true);
    expect(run.calls).toEqual([false]);
  });

  it('tells the executor when a previous worker life started the request and died', async () => {
    const storage = new MemoryStorage();
    await storage.set({ 'executed:d1': { state: 'running', at: Date.now() } });
    const run = counting();
    await new ExecutedTable(storage).run('d1', run.execute('d1'), false);
    expect(run.calls).toEqual([true]);
  });

  it('re-runs a read whose answer was too large to keep, but never a write', async () => {
    const storage = new MemoryStorage();
    const options = { ...DEFAULT_TABLE_OPTIONS, maxEntryBytes: 100 };
    const big = counting((id) => ok(id, 'x'.repeat(500)));
    const table = new ExecutedTable(storage, options);
    await table.run('e1', big.execute('e1'), true);
    await table.run('e1', big.execute('e1'), true);
    expect(big.calls).toEqual([false, false]);

    await table.run('e2', big.execute('e2'), false);
    const replay = await table.run('e2', big.execute('e2'), false);
    expect(big.calls).toHaveLength(3);
    expect(replay.response.ok ? null : replay.response.error.code).toBe('DRIVER_ERROR');
  });

  it('keeps at most maxEntries records, evicting the oldest', async () => {
    const storage = new MemoryStorage();
    const table = new ExecutedTable(storage, { ...DEFAULT_TABLE_OPTIONS, maxEntries: 3 });
    for (const id of ['f1', 'f2', 'f3', 'f4', 'f5']) await table.run(id, async () => ok(id), false);
    const keys = [...storage.data.keys()].filter((k) => k !== 'executed:index').sort();
    expect(keys).toEqual(['executed:f3', 'executed:f4', 'executed:f5']);
  });

  it('forgets records older than the TTL', async () => {
    let now = 1_000_000;
    const storage = new MemoryStorage();
    const table = new ExecutedTable(storage, { ...DEFAULT_TABLE_OPTIONS, ttlMs: 1_000, now: () => now });
    const run = counting();
    await table.run('g1', run.execute('g1'), false);
    now += 2_000;
    await table.run('g1', run.execute('g1'), false);
    expect(run.calls).toEqual([false, false]);
  });
});
