/**
 * Part of the driver-agnostic action suite (see actions.ts): the waits beyond text and elements —
 * text going away, the URL matching a pattern (a same-document move included), the page's load, the
 * network going quiet — each
 * ending when its condition holds, and each answering a clear WAIT_TIMEOUT at its deadline, on every
 * driver.
 */
import { expect, it } from 'vitest';
import type { Agent } from '../agent';

const T = 45_000;

interface Waited {
  url: string;
  title: string;
  waitedMs: number;
}

export function defineWaitTests(a: () => Agent): void {
  it(
    'waits for text to go, and for the URL to match a pattern, each ending when its condition holds',
    async () => {
      const s = await a().session('waits.html');
      const [finish, go] = await a().handles(s, 'Finish', 'Go on');
      await a().cli.ok(['click', '-s', s, finish]);
      await a().cli.ok<Waited>(['wait', '-s', s, '--text-gone', 'Loading…', '--timeout-ms', '5000']);
      expect(await a().text(s)).toContain('Ready');

      await a().cli.ok(['click', '-s', s, go]);
      const moved = await a().cli.ok<Waited>([
        'wait',
        '-s',
        s,
        '--url',
        '*/waits.html?step=done',
        '--timeout-ms',
        '5000',
      ]);
      expect(moved.url).toBe(a().url('waits.html?step=done'));
      // A pattern without * matches a URL that contains it; one already matching ends at once.
      const contains = await a().cli.ok<Waited>(['wait', '-s', s, '--url', 'step=done']);
      expect(contains.url).toBe(moved.url);
      await a().close(s);
    },
    T,
  );

  it(
    'waits for the page to load: a page whose load a slow image holds',
    async () => {
      const s = await a().session('counter.html');
      await a().cli.ok(['navigate', '-s', s, a().url('slow-load.html'), '--wait-until', 'domcontentloaded']);
      const loaded = await a().cli.ok<Waited>(['wait', '-s', s, '--load', '--timeout-ms', '10000']);
      expect(loaded.url).toBe(a().url('slow-load.html'));
      expect(await a().text(s)).toContain('fully loaded');
      await a().close(s);
    },
    T,
  );

  it(
    'answers WAIT_TIMEOUT at the deadline, saying what was awaited and where the page is',
    async () => {
      const s = await a().session('waits.html');
      const url = await a().cli.fail(['wait', '-s', s, '--url', '*/never-here*', '--timeout-ms', '600']);
      expect(url.code).toBe('WAIT_TIMEOUT');
      expect(url.message).toContain('"*/never-here*"');
      expect(url.message).toContain(a().url('waits.html'));
      const gone = await a().cli.fail(['wait', '-s', s, '--text-gone', 'Waits', '--timeout-ms', '600']);
      expect(gone.code).toBe('WAIT_TIMEOUT');
      expect(gone.message).toContain('"Waits" to go');
      await a().close(s);
    },
    T,
  );
  it(
    'waits for the network to be idle: only after the slow request the page started has ended',
    async () => {
      const s = await a().session('network-idle.html');
      const [fetchSlowly] = await a().handles(s, 'Fetch slowly');
      await a().cli.ok(['click', '-s', s, fetchSlowly]);
      const idle = await a().cli.ok<Waited>(['wait', '-s', s, '--network-idle', '--timeout-ms', '10000']);
      // The page writes the answer when its request ends: a wait that ended earlier would see "Fetching".
      expect(await a().text(s)).toContain('Fetched slow');
      expect(idle.waitedMs).toBeGreaterThanOrEqual(500);
      expect(idle.url).toBe(a().url('network-idle.html'));
      await a().close(s);
    },
    T,
  );

  it(
    'answers WAIT_TIMEOUT for network idle while a request is in flight, naming it',
    async () => {
      const s = await a().session('network-idle.html');
      const [hang] = await a().handles(s, 'Fetch forever');
      await a().cli.ok(['click', '-s', s, hang]);
      const busy = await a().cli.fail(['wait', '-s', s, '--network-idle', '--timeout-ms', '800']);
      expect(busy.code).toBe('WAIT_TIMEOUT');
      expect(busy.message).toContain('1 request was still in flight');
      expect(busy.message).toContain(a().url('slow/hang?ms=5000'));
      await a().close(s);
    },
    T,
  );
}
