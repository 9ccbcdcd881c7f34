import { describe, expect, it } from 'vitest';
import { RequestLedger } from '../../src/driver/ledger';

describe('request ledger', () => {
  it('runs an id once: a replay joins the run or gets the recorded answer', async () => {
    const ledger = new RequestLedger<string>();
    let runs = 0;
    let release = (): void => undefined;
    const execute = () =>
      new Promise<string>((resolve) => {
        runs++;
        release = () => resolve(`answer ${runs}`);
      });
    const first = ledger.run('a', execute);
    const joined = ledger.run('a', execute);
    release();
    expect(await first).toBe('answer 1');
    expect(await joined).toBe('answer 1');
    expect(await ledger.run('a', execute)).toBe('answer 1');
    expect(runs).toBe(1);
  });

  it('forgets finished ids after their time to live, never running ones', async () => {
    let now = 0;
    const ledger = new RequestLedger<string>(1000, 100, () => now);
    await ledger.run('done', async () => 'x');
    void ledger.run('running', () => new Promise<string>(() => undefined));
    now = 1000;
    await ledger.run('new', async () => 'y');
    expect(ledger.has('done')).toBe(false);
    expect(ledger.has('running')).toBe(true);
  });
});
