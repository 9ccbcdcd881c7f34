/**
 * What the daemon tells its operator: a `timeout` log event for every TIMEOUT, wherever it was decided
 * (on arrival, in pacing, behind the same tab, in flight, by the driver); debug.last traces for requests
 * refused at parse time and for answers replayed to a repeated id; request and response payloads at
 * the debug log level only, redacted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeError, type BproxyResponse } from '@bproxy/protocol';
import { createLogger } from '../src/logs/logger';
import {
  FakeExtension,
  nextId,
  okData,
  startDaemon,
  startDaemonWithTab,
  until,
  type TestDaemon,
} from './harness';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function withTab(overrides: Parameters<typeof startDaemonWithTab>[0] = {}) {
  const env = await startDaemonWithTab(overrides);
  closers.push(() => env.close());
  return env;
}

const code = (res: BproxyResponse) => (res.ok ? 'ok' : res.error.code);
const events = (daemon: TestDaemon, event: string, id?: string) =>
  daemon.logLines
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((e) => e.event === event && (id === undefined || e.id === id));

interface Trace {
  id: string | null;
  action: string | null;
  ok: boolean;
  errorCode?: string;
  replayed?: boolean;
}
const traces = async (daemon: TestDaemon) =>
  okData<{ traces: Trace[] }>(await daemon.call('debug.last', { limit: 50 })).traces;

describe('timeout events', () => {
  it('logs a TIMEOUT decided on arrival, the deadline already past', async () => {
    const { daemon, session } = await withTab();
    const id = nextId();
    const res = await daemon.post({ id, action: 'text', session, params: {}, deadline: Date.now() - 1_000 });
    expect(code(res.body)).toBe('TIMEOUT');
    expect(events(daemon, 'timeout', id)).toEqual([expect.objectContaining({ stage: 'arrival' })]);
  });

  it('logs a TIMEOUT decided by pacing, the slot past the deadline', async () => {
    const { daemon, ext } = await withTab({ pacingOverride: 'human', random: () => 0 });
    const id = nextId();
    const opened = okData<{ session: string }>(await daemon.call('tab.open', { url: 'http://x/2' }));
    const res = await daemon.call('navigate', { url: 'http://x/3' }, opened.session, { id, deadlineMs: 300 });
    expect(code(res)).toBe('TIMEOUT');
    expect(ext.received.some((r) => r.id === id)).toBe(false);
    expect(events(daemon, 'timeout', id)).toEqual([expect.objectContaining({ stage: 'pacing' })]);
  });

  it('logs a TIMEOUT decided while waiting behind the same tab', async () => {
    // The daemon's clock, moved forward by hand: the second request's deadline passes while it waits.
    let skew = 0;
    const clock = { now: () => Date.now() + skew, monotonic: () => performance.now() + skew };
    const { daemon, ext, session } = await withTab({ clock });
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const firstId = nextId();
    ext.behaviour = async (req) => {
      if (req.id === firstId) await held;
      return ext.defaultAnswer(req);
    };
    const first = daemon.call('text', {}, session, { id: firstId });
    const id = nextId();
    const second = daemon.call('text', {}, session, { id, deadlineMs: 5_000 });
    await until(() => events(daemon, 'received', id).length === 1, 'the second request to arrive');
    skew += 10_000;
    release();
    expect(code(await second)).toBe('TIMEOUT');
    expect(code(await first)).toBe('ok');
    expect(ext.received.some((r) => r.id === id)).toBe(false);
    expect(events(daemon, 'timeout', id)).toEqual([expect.objectContaining({ stage: 'queue' })]);
  });

  it('logs a TIMEOUT the driver answered itself', async () => {
    const { daemon, ext, session } = await withTab();
    ext.behaviour = () => ({ ok: false, error: makeError('TIMEOUT', 'the page did not finish loading') });
    const id = nextId();
    expect(code(await daemon.call('navigate', { url: 'http://x/slow' }, session, { id }))).toBe('TIMEOUT');
    expect(events(daemon, 'timeout', id)).toEqual([expect.objectContaining({ stage: 'driver' })]);
  });
});

describe('debug.last', () => {
  it('records requests refused at parse time, with their id when they had a valid one', async () => {
    const { daemon } = await withTab();
    await daemon.post({ id: 'bad-action', action: 'teleport', params: {}, deadline: Date.now() + 5_000 });
    await daemon.post({
      id: 'bad-params',
      action: 'text',
      params: { nope: 1 },
      deadline: Date.now() + 5_000,
    });
    await daemon.post('{"not json');
    const all = await traces(daemon);
    expect(all.find((t) => t.id === 'bad-action')).toMatchObject({
      action: 'teleport',
      ok: false,
      errorCode: 'UNKNOWN_ACTION',
    });
    expect(all.find((t) => t.id === 'bad-params')).toMatchObject({
      action: 'text',
      ok: false,
      errorCode: 'BAD_REQUEST',
    });
    expect(all.some((t) => t.id === null && t.errorCode === 'BAD_REQUEST')).toBe(true);
  });

  it('records an answer replayed to a repeated id, and a conflicting reuse', async () => {
    const { daemon, session } = await withTab();
    const id = nextId();
    expect(code(await daemon.call('text', {}, session, { id }))).toBe('ok');
    expect(code(await daemon.call('text', {}, session, { id }))).toBe('ok');
    expect(code(await daemon.call('links', {}, session, { id }))).toBe('REQUEST_ID_CONFLICT');
    const mine = (await traces(daemon)).filter((t) => t.id === id);
    expect(mine).toEqual([
      expect.objectContaining({ action: 'links', ok: false, errorCode: 'REQUEST_ID_CONFLICT' }),
      expect.objectContaining({ action: 'text', ok: true, replayed: true }),
      expect.objectContaining({ action: 'text', ok: true }),
    ]);
    expect(mine[2]?.replayed).toBeUndefined();
  });
});

describe('payload logging', () => {
  it('logs request and response payloads at debug level, with typed values redacted', async () => {
    const { daemon, session } = await withTab();
    const fill = nextId();
    expect(
      code(
        await daemon.call('fill', { target: { selector: '#pw' }, value: 'hunter2' }, session, { id: fill }),
      ),
    ).toBe('ok');
    const text = nextId();
    expect(code(await daemon.call('text', {}, session, { id: text }))).toBe('ok');
    expect(events(daemon, 'request_payload', fill)).toEqual([
      expect.objectContaining({
        action: 'fill',
        session,
        params: { target: { selector: '#pw' }, value: '[redacted]' },
      }),
    ]);
    expect(events(daemon, 'response_payload', text)).toEqual([
      expect.objectContaining({ ok: true, data: expect.objectContaining({ text: 'hello' }) }),
    ]);
    expect(daemon.logLines.join('\n')).not.toContain('hunter2');
  });

  it('logs no payload at the info level', async () => {
    const lines: string[] = [];
    const { logger } = createLogger({ level: 'info', destination: { write: (l: string) => lines.push(l) } });
    const daemon = await startDaemon({ logger });
    const ext = new FakeExtension(daemon);
    closers.push(async () => {
      await ext.drop();
      await daemon.close();
    });
    await ext.connect();
    const { session } = okData<{ session: string }>(await daemon.call('tab.open', { url: 'http://x/' }));
    expect(code(await daemon.call('text', {}, session))).toBe('ok');
    expect(lines.some((l) => l.includes('"event":"received"'))).toBe(true);
    expect(lines.some((l) => l.includes('_payload'))).toBe(false);
  });
});
