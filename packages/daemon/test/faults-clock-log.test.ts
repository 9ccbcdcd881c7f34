/**
 * Faults outside the sockets: the wall clock jumping (an NTP step, a suspended laptop, a user changing
 * the time) while requests, pairing codes, throttles and element handles are live — deadlines and
 * throttles run on the monotonic clock and must not move — and a log directory that cannot be
 * written or a disk that is full, which must cost log lines and nothing else.
 */
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BproxyForwardedRequestSchema, DEFAULT_EXTENSION_ID } from '@bproxy/protocol';
import { createLogger } from '../src/logs/logger';
import { ForwardedRequests } from '../src/browsers/forwarded-requests';
import { startDaemon, type TestDaemon } from './harness';
import { FaultyExtension, command, expectIdle, openSession, timerBaseline } from './faults-helpers';
import { until } from './harness';

const HOUR = 3_600_000;
let daemon: TestDaemon | null = null;
let ext: FaultyExtension | null = null;

afterEach(async () => {
  ext?.kill();
  ext = null;
  await daemon?.close();
  daemon = null;
});

/** A clock whose wall time can be stepped; its monotonic time is the real one. */
function steppableClock(): { clock: { now(): number; monotonic(): number }; step(ms: number): void } {
  let offset = 0;
  return {
    clock: { now: () => Date.now() + offset, monotonic: () => performance.now() },
    step: (ms) => {
      offset += ms;
    },
  };
}

function claim(d: TestDaemon, code: string) {
  return d.server.app.inject({
    method: 'POST',
    url: '/pair/claim',
    headers: {
      host: `127.0.0.1:${d.port}`,
      origin: `chrome-extension://${DEFAULT_EXTENSION_ID}`,
      'content-type': 'application/json',
    },
    payload: { code },
  });
}

describe('wall-clock jumps', () => {
  it('neither expires nor extends a request in flight when the wall clock jumps', async () => {
    const { clock, step } = steppableClock();
    daemon = await startDaemon({ clock });
    const timers = timerBaseline();
    ext = new FaultyExtension(daemon);
    await ext.connect();
    const session = await openSession(daemon);
    const e = ext;
    e.fault = (req) => (req.id.startsWith('jump-') ? 'hold' : 'answer');
    const forward = command(daemon, 'text', {}, { session, id: 'jump-fwd', deadlineMs: 3_000 });
    await until(() => e.held('jump-fwd'), 'the request to reach the extension');
    step(+HOUR);
    e.release('jump-fwd');
    expect((await forward).ok).toBe(true);

    // A step backwards does not keep a request alive past its real deadline.
    const backward = command(
      daemon,
      'text',
      {},
      { session, id: 'jump-back', deadlineMs: 300, now: clock.now },
    );
    await until(() => e.held('jump-back'), 'the second request to reach the extension');
    step(-2 * HOUR);
    const res = await backward;
    expect(res.ok ? 'ok' : res.error.code).toBe('TIMEOUT');
    e.release('jump-back');
    await expectIdle(daemon, { drivers: 1, timers });
  });

  it('keeps element handles and pairing codes valid across a jump of hours', async () => {
    const { clock, step } = steppableClock();
    daemon = await startDaemon({ clock });
    ext = new FaultyExtension(daemon);
    await ext.connect();
    const session = await openSession(daemon);
    const issued = daemon.server.issuePairingCode();
    const listed = await command(daemon, 'elements', {}, { session });
    const handle = listed.ok ? (listed.data as { elements: { handle: string }[] }).elements[0]?.handle : '';
    step(+3 * HOUR);
    // Handle TTL (120 s) and code TTL (5 min) are monotonic: hours of wall time mean nothing.
    const clicked = await command(daemon, 'click', { target: handle }, { session, now: clock.now });
    expect(clicked.ok).toBe(true);
    const paired = await claim(daemon, issued.code);
    expect(paired.statusCode).toBe(200);
  });

  it('keeps the pairing throttle closed when the wall clock steps back', async () => {
    const { clock, step } = steppableClock();
    daemon = await startDaemon({ clock });
    for (let i = 0; i < 5; i++) expect((await claim(daemon, 'AAAA-AAAA')).statusCode).toBe(401);
    step(-HOUR);
    expect((await claim(daemon, 'AAAA-AAAA')).statusCode).toBe(429);
    step(+2 * HOUR);
    expect((await claim(daemon, 'AAAA-AAAA')).statusCode).toBe(429);
  });
});

describe('timers against the monotonic deadline', () => {
  it('does not answer TIMEOUT while the monotonic deadline is still ahead, even if the timer fires early', async () => {
    // A monotonic clock that runs 40 ms behind the timers: their callback comes "early".
    let lag = 0;
    const monotonic = () => performance.now() - lag;
    const timeouts: number[] = [];
    const pending = new ForwardedRequests(monotonic, {
      timeout: () => timeouts.push(monotonic()),
      replay: () => undefined,
      late: () => undefined,
    });
    const deadlineMono = monotonic() + 50;
    const request = BproxyForwardedRequestSchema.parse({
      id: 'early-1',
      action: 'text',
      params: {},
      deadline: Date.now() + 50,
    });
    const outcome = pending.send('c1', request, deadlineMono, () => true);
    lag = 40;
    const res = await outcome;
    expect(res.ok ? 'ok' : res.error.code).toBe('TIMEOUT');
    expect(timeouts[0]).toBeGreaterThanOrEqual(deadlineMono);
    expect(pending.awaitingAnswer).toBe(0);
  });
});

describe('logging faults', () => {
  async function serveWith(dir: string) {
    const log = createLogger({ dir, level: 'debug' });
    daemon = await startDaemon({ logger: log.logger });
    ext = new FaultyExtension(daemon);
    await ext.connect();
    const session = await openSession(daemon);
    for (let i = 0; i < 30; i++) {
      const res = await command(
        daemon,
        i % 2 ? 'text' : 'click',
        i % 2 ? {} : { target: { selector: '#a' } },
        {
          session,
        },
      );
      expect(res.ok).toBe(true);
    }
    return log.destination;
  }

  it('keeps serving when the log directory cannot be created', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'bproxy-logfault-'));
    // A regular file where the directory should be: mkdir fails whatever our privileges are.
    writeFileSync(join(parent, 'logs'), 'not a directory');
    const destination = await serveWith(join(parent, 'logs', 'inner'));
    expect(destination?.dropped).toBeGreaterThan(0);
    await expectIdle(daemon as TestDaemon, { drivers: 1 });
  });

  it('keeps serving when the disk is full', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bproxy-logfull-'));
    const d = new Date();
    const pad = (n: number) => String(n).padStart(2, '0');
    const day = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
    // Every write to /dev/full fails with ENOSPC, exactly like a full disk.
    symlinkSync('/dev/full', join(dir, `${day}.log`));
    const destination = await serveWith(dir);
    await until(() => (destination?.dropped ?? 0) > 0, 'the failed writes to be counted');
    await expectIdle(daemon as TestDaemon, { drivers: 1 });
  });
});
