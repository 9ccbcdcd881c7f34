/**
 * A property-based model of reconnect replays and retries. The driver keeps an execution table like
 * the real ones (one browser profile, shared by all its connections) and counts executions; random
 * steps interleave agent sends and retries, executions whose answer is lost with the connection,
 * late and duplicate answers, drops, reconnects and takeovers by a second connection while the first
 * is still open. Invariants after every run: each agent call got one answer and every call for an id
 * got the same one; no id executed twice; nothing executed after the agent was told TIMEOUT for it;
 * the pending map, the admission count and the tab queues are back to idle.
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
  | { kind: 'execute'; reply: boolean }
  | { kind: 'answerLost' }
  | { kind: 'duplicate' }
  | { kind: 'drop' }
  | { kind: 'reconnect' }
  | { kind: 'takeover' }
  | { kind: 'wait'; ms: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('send' as const),
      n: fc.nat(5),
      deadline: fc.integer({ min: 30, max: 250 }),
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant('retry' as const), n: fc.nat(5) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('execute' as const), reply: fc.boolean() }), weight: 3 },
  { arbitrary: fc.constant({ kind: 'answerLost' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'duplicate' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'drop' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'reconnect' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'takeover' as const }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('wait' as const), ms: fc.nat(80) }), weight: 2 },
);

type DriverEnd = MessageTransport<DaemonMessage, DriverMessage>;

/** One browser profile: an execution table shared by its connections, each with its own inbox. */
class ModelBrowser {
  current: DriverEnd | null = null;
  inbox: BproxyForwardedRequest[] = [];
  readonly executedAt = new Map<string, number[]>();
  readonly answers = new Map<string, DriverMessage>();
  /** Executed but not answered yet (their answer goes out on a later `execute` with reply). */
  unanswered: string[] = [];

  constructor(private readonly daemon: TestDaemon) {}

  async connect(): Promise<void> {
    const [daemonEnd, driverEnd] = createLinkedTransportPair<DriverMessage, DaemonMessage>();
    driverEnd.onmessage = (msg) => {
      if (msg.type !== 'request' || this.current !== driverEnd) return;
      this.inbox.push(msg.request);
    };
    driverEnd.onclose = () => {
      if (this.current === driverEnd) {
        this.current = null;
        this.inbox = [];
      }
    };
    this.current = driverEnd;
    this.inbox = [];
    const accepted = this.daemon.server.connectDriver(daemonEnd);
    driverEnd.send({
      type: 'hello',
      protocolVersion: PROTOCOL_VERSION,
      client: { instanceId: 'modelbrowser1', kind: 'extension' },
    });
    await accepted;
  }

  /** Takes the next delivered request: answers a replay from the table, else executes it (once). */
  execute(reply: boolean): void {
    const r = this.inbox.shift();
    if (!r || !this.current) return;
    const known = this.answers.get(r.id);
    if (known) {
      this.current.send(known);
      return;
    }
    // Like the real drivers: a request whose deadline has come is refused, never started late.
    if (Date.now() >= r.deadline) return;
    const times = this.executedAt.get(r.id) ?? [];
    times.push(performance.now());
    this.executedAt.set(r.id, times);
    const answer: DriverMessage = {
      type: 'response',
      id: r.id,
      ok: true,
      data: { url: 'http://x/', title: 't', text: r.id, totalChars: 1, truncated: false },
    };
    this.answers.set(r.id, answer);
    if (reply) this.current.send(answer);
    else this.unanswered.push(r.id);
  }

  /** Re-sends an answer already given (or held back): a duplicate or a late answer. */
  resend(): void {
    const id = this.unanswered.shift() ?? [...this.answers.keys()].at(-1);
    const answer = id === undefined ? undefined : this.answers.get(id);
    if (answer && this.current) this.current.send(answer);
  }

  drop(): void {
    this.current?.close('dropped');
    this.current = null;
    this.inbox = [];
  }
}

describe('reconnect and retry model', () => {
  it('keeps exactly-once and idle invariants under replays, takeovers, lost and late answers', async () => {
    const daemon = await startDaemon({ reconnectGraceMs: 60_000 });
    try {
      const browser = new ModelBrowser(daemon);
      await browser.connect();
      const opening = daemon.call('tab.open', { url: 'http://x/' });
      await until(() => browser.inbox.length === 1, 'tab.open to reach the driver');
      const open = browser.inbox.shift();
      browser.current?.send({
        type: 'response',
        id: open?.id ?? '',
        ok: true,
        data: { tabId: 1, url: 'http://x/', title: 't' },
      });
      const opened = await opening;
      // Without a session every step would be refused before reaching the driver: a vacuous model.
      if (!opened.ok) throw new Error(`tab.open failed: ${opened.error.code}`);
      const session = (opened.data as { session: string }).session;
      let executedRuns = 0;
      let run = 0;

      await fc.assert(
        fc.asyncProperty(fc.array(stepArb, { minLength: 5, maxLength: 40 }), async (steps) => {
          run++;
          const calls = new Map<string, Promise<BproxyResponse>[]>();
          const bodies = new Map<string, object>();
          const timedOutAt = new Map<string, number>();
          const post = (id: string) => {
            const p = daemon.server.app
              .inject({
                method: 'POST',
                url: '/',
                headers: {
                  host: `127.0.0.1:${daemon.port}`,
                  authorization: `Bearer ${daemon.token}`,
                  'content-type': 'application/json',
                },
                payload: bodies.get(id),
              })
              .then((res) => {
                const json = res.json() as BproxyResponse;
                if (!json.ok && json.error.code === 'TIMEOUT' && !timedOutAt.has(id))
                  timedOutAt.set(id, performance.now());
                return json;
              });
            calls.set(id, [...(calls.get(id) ?? []), p]);
          };
          if (!browser.current) await browser.connect();
          for (const step of steps) {
            switch (step.kind) {
              case 'send': {
                const id = `x${run}-${step.n}`;
                if (bodies.has(id)) break;
                bodies.set(id, {
                  id,
                  action: 'text',
                  session,
                  params: {},
                  deadline: Date.now() + step.deadline,
                });
                post(id);
                // Let the send reach the driver when one is connected, so later steps can act on it.
                const sentAt = performance.now();
                while (
                  browser.current &&
                  !browser.inbox.some((r) => r.id === id) &&
                  performance.now() - sentAt < 50
                )
                  await new Promise((r) => setTimeout(r, 1));
                break;
              }
              case 'retry': {
                const id = `x${run}-${step.n}`;
                if (bodies.has(id)) post(id);
                break;
              }
              case 'execute':
                browser.execute(step.reply);
                break;
              case 'answerLost':
                browser.execute(false);
                browser.drop();
                break;
              case 'duplicate':
                browser.resend();
                break;
              case 'drop':
                browser.drop();
                break;
              case 'reconnect':
                if (!browser.current) await browser.connect();
                break;
              case 'takeover':
                // A second connection of the same profile while the first may still be open.
                await browser.connect();
                break;
              case 'wait':
                await new Promise((r) => setTimeout(r, step.ms));
                break;
            }
            await Promise.resolve();
          }
          // Settle: a live connection that works through its inbox until every call is answered.
          if (!browser.current) await browser.connect();
          const all = [...calls.values()].flat();
          let settled = false;
          void Promise.all(all).then(() => (settled = true));
          while (!settled) {
            while (browser.inbox.length > 0) browser.execute(true);
            for (const id of browser.unanswered.splice(0)) {
              const a = browser.answers.get(id);
              if (a) browser.current?.send(a);
            }
            await new Promise((r) => setTimeout(r, 5));
          }

          for (const [id, list] of calls) {
            const answers = await Promise.all(list);
            for (const a of answers) expect(a).toEqual(answers[0]);
            const executions = browser.executedAt.get(id) ?? [];
            expect(executions.length, `executions of ${id}`).toBeLessThanOrEqual(1);
            const timedOut = timedOutAt.get(id);
            if (timedOut !== undefined)
              for (const t of executions)
                expect(t, `${id} ran after its TIMEOUT`).toBeLessThanOrEqual(timedOut);
            // An id that executed and was answered ok reports the execution's result, nothing else.
            if (answers[0]?.ok) expect(executions.length).toBe(1);
          }
          if (browser.executedAt.size > 0) executedRuns++;
          const { deps } = daemon.server;
          await until(
            () => deps.pending.inFlight === 0 && deps.pending.awaitingAnswer === 0 && deps.queues.size === 0,
            'idle pending map and queues',
          );
          expect(deps.drivers.count).toBe(1);
        }),
        { numRuns: 40 },
      );
      // The model must exercise the driver, not only the daemon's refusals.
      expect(executedRuns).toBeGreaterThan(20);
    } finally {
      await daemon.close();
    }
  }, 90_000);
});
