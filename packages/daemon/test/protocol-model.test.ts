/**
 * A property-based model of the daemon–driver protocol: random interleavings of agent sends and
 * retries, driver deliveries, duplicate and late answers, dropped connections and reconnects, against
 * the real daemon (real routes via inject, real dispatch/pending/drivers over an in-process transport).
 * After every run: each request id got one answer (retries see the same one); the daemon never re-sent
 * an id after its answer, nor after telling the agent TIMEOUT; nothing is left pending.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createLinkedTransportPair,
  PROTOCOL_VERSION,
  type BproxyForwardedRequest,
  type BproxyResponse,
  type DaemonMessage,
  type DriverMessage,
  type MessageTransport,
} from '@bproxy/protocol';
import { startDaemon, until, type TestDaemon } from './harness';

type Step =
  | { kind: 'send'; n: number; deadline: number }
  | { kind: 'retry'; n: number }
  | { kind: 'deliver' }
  | { kind: 'duplicate' }
  | { kind: 'drop' }
  | { kind: 'reconnect' }
  | { kind: 'wait'; ms: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('send' as const),
    n: fc.integer({ min: 0, max: 5 }),
    deadline: fc.integer({ min: 20, max: 200 }),
  }),
  fc.record({ kind: fc.constant('retry' as const), n: fc.integer({ min: 0, max: 5 }) }),
  fc.constant({ kind: 'deliver' as const }),
  fc.constant({ kind: 'deliver' as const }),
  fc.constant({ kind: 'duplicate' as const }),
  fc.constant({ kind: 'drop' as const }),
  fc.constant({ kind: 'reconnect' as const }),
  fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 60 }) }),
);

class ModelDriver {
  transport: MessageTransport<DaemonMessage, DriverMessage> | null = null;
  inbox: BproxyForwardedRequest[] = [];
  answered = new Map<string, number>();
  /** id → times it reached the driver after the driver had answered it. */
  resentAfterAnswer: string[] = [];
  receivedAt = new Map<string, number[]>();
  lastAnswered: BproxyForwardedRequest | null = null;

  constructor(private readonly daemon: TestDaemon) {}

  async connect(): Promise<void> {
    const [daemonEnd, driverEnd] = createLinkedTransportPair<DriverMessage, DaemonMessage>();
    this.transport = driverEnd;
    driverEnd.onmessage = (msg) => {
      if (msg.type !== 'request') return;
      const r = msg.request;
      const times = this.receivedAt.get(r.id) ?? [];
      times.push(performance.now());
      this.receivedAt.set(r.id, times);
      if (this.answered.has(r.id)) this.resentAfterAnswer.push(r.id);
      this.inbox.push(r);
    };
    driverEnd.onclose = () => {
      if (this.transport === driverEnd) this.transport = null;
    };
    const connected = this.daemon.server.connectDriver(daemonEnd);
    driverEnd.send({
      type: 'hello',
      protocolVersion: PROTOCOL_VERSION,
      client: { instanceId: 'modeldriver1', kind: 'extension' },
    });
    await connected;
  }

  answer(r: BproxyForwardedRequest): void {
    this.transport?.send({
      type: 'response',
      id: r.id,
      ok: true,
      data: { url: 'http://x/', title: 't', text: r.id, totalChars: 1, truncated: false },
    });
  }

  deliver(): void {
    const r = this.inbox.shift();
    if (!r || !this.transport) return;
    // A real driver refuses what is past its deadline instead of running it late.
    if (Date.now() > r.deadline) return;
    this.answered.set(r.id, performance.now());
    this.lastAnswered = r;
    this.answer(r);
  }

  drop(): void {
    this.transport?.close('dropped');
    this.transport = null;
    this.inbox = [];
  }
}

describe('protocol model', () => {
  it('keeps its invariants under random sends, drops, replays, duplicates and timeouts', async () => {
    const daemon = await startDaemon({ reconnectGraceMs: 60_000 });
    try {
      const setup = new ModelDriver(daemon);
      await setup.connect();
      const opened = await daemon.call('tab.open', { url: 'http://x/' });
      const session = opened.ok ? (opened.data as { session: string }).session : '';
      let run = 0;

      await fc.assert(
        fc.asyncProperty(fc.array(stepArb, { minLength: 5, maxLength: 40 }), async (steps) => {
          run++;
          const driver = setup;
          const answers = new Map<string, Promise<BproxyResponse>[]>();
          const bodies = new Map<string, object>();
          const timedOutAt = new Map<string, number>();
          const post = (id: string) => {
            const body = bodies.get(id);
            const p = daemon.server.app
              .inject({
                method: 'POST',
                url: '/',
                headers: {
                  host: `127.0.0.1:${daemon.port}`,
                  authorization: `Bearer ${daemon.token}`,
                  'content-type': 'application/json',
                },
                payload: body,
              })
              .then((res) => {
                const json = res.json() as BproxyResponse;
                if (!json.ok && json.error.code === 'TIMEOUT' && !timedOutAt.has(id))
                  timedOutAt.set(id, performance.now());
                return json;
              });
            const list = answers.get(id) ?? [];
            list.push(p);
            answers.set(id, list);
          };
          if (!driver.transport) await driver.connect();
          for (const step of steps) {
            switch (step.kind) {
              case 'send': {
                const id = `m${run}-${step.n}`;
                if (!bodies.has(id)) {
                  bodies.set(id, {
                    id,
                    action: 'text',
                    session,
                    params: {},
                    deadline: Date.now() + step.deadline,
                  });
                  post(id);
                }
                break;
              }
              case 'retry': {
                const id = `m${run}-${step.n}`;
                if (bodies.has(id)) post(id);
                break;
              }
              case 'deliver':
                driver.deliver();
                break;
              case 'duplicate':
                if (driver.lastAnswered) driver.answer(driver.lastAnswered);
                break;
              case 'drop':
                driver.drop();
                break;
              case 'reconnect':
                if (!driver.transport) await driver.connect();
                break;
              case 'wait':
                await new Promise((r) => setTimeout(r, step.ms));
                break;
            }
            await new Promise((r) => setImmediate(r));
          }
          // Let everything settle: every deadline passes, every answer arrives.
          if (!driver.transport) await driver.connect();
          while (driver.inbox.length) driver.deliver();
          const all = [...answers.values()].flat();
          const settled = await Promise.all(all);
          for (const [, list] of answers) {
            const results = await Promise.all(list);
            for (const r of results) expect(r).toEqual(results[0]);
          }
          expect(settled.length).toBe(all.length);
          expect(driver.resentAfterAnswer).toEqual([]);
          for (const [id, at] of timedOutAt) {
            for (const t of driver.receivedAt.get(id) ?? []) expect(t).toBeLessThanOrEqual(at);
          }
          await until(
            () =>
              daemon.server.deps.pending.inFlight === 0 && daemon.server.deps.pending.awaitingAnswer === 0,
            'idle pending map',
          );
        }),
        { numRuns: 40 },
      );
    } finally {
      await daemon.close();
    }
  }, 60_000);
});
