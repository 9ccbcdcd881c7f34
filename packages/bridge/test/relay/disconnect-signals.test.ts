import { describe, expect, it } from 'vitest';
import { CORROBORATION_WINDOW_MS, DisconnectSignals, RING_SIZE } from '../../src/relay/disconnect-signals';

describe('disconnect signals', () => {
  it('keeps the last 10 weak signals', () => {
    const now = 0;
    const signals = new DisconnectSignals(() => now);
    for (let i = 0; i < 15; i++) signals.recordWeak('Target.detachedFromTarget', `{"n":${i}}`);
    expect(RING_SIZE).toBe(10);
    expect(signals.recent.map((s) => s.event)).toEqual(
      [5, 6, 7, 8, 9, 10, 11, 12, 13, 14].map((n) => `{"n":${n}}`),
    );
    expect(signals.recent.every((s) => s.at === now)).toBe(true);
  });

  it('calls a loss corroborated by weak signals within 2 s "browser-closed", and a bare one "connection-lost"', () => {
    let now = 10_000;
    const signals = new DisconnectSignals(() => now);
    signals.recordWeak('Inspector.detached', '{}');
    now += CORROBORATION_WINDOW_MS + 1;
    expect(signals.strong('ConnectionClosed')).toEqual({
      cause: 'connection-lost',
      signals: ['ConnectionClosed'],
    });
    signals.recordWeak('Target.detachedFromTarget', '{}');
    now += 1_500;
    expect(signals.strong('ConnectionClosed')).toEqual({
      cause: 'browser-closed',
      signals: ['Target.detachedFromTarget', 'ConnectionClosed'],
    });
  });
});
