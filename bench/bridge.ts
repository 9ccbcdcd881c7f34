/**
 * `npm run bench:bridge` — what the CDP bridge costs and how fast it comes back:
 *  1. round trips of `Runtime.evaluate` on a page session, p50/p90: straight to Chromium (its
 *     WebSocket, and a pipe to a Chromium of its own) against the same calls through the bridge in
 *     ws mode and in pipe mode (both attached to the very Chromium of the direct WebSocket row);
 *  2. recovery: Chromium SIGKILLed under a ws-mode bridge, then the time from the kill until the
 *     bridge noticed (the tool hears Target.detachedFromTarget), and from the next request until it is
 *     answered (relaunch, bootstrap, flush) — each round a fresh loss;
 *  3. the close path: a ws-mode bridge that launched its Chromium gets Browser.close, then the time
 *     until the browser process is gone (it exits by itself, writing its profile) and until the
 *     bridge has exited — each round a fresh bridge and profile.
 * A benchmark, not a test: it prints figures. Options: --calls N (default 1000), --rounds N (default 5).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { connectWebSocket, createPipeTransport, type CdpTransport } from '@bproxy/cdp/wire';
import { load, ms, pct, ROOT } from './cli-common';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
};
const CALLS = arg('--calls', 1_000);
const ROUNDS = arg('--rounds', 5);
const BRIDGE = join(ROOT, 'packages', 'cli', 'dist', 'bproxy-bridge');
const CHROME = [
  process.env.CHROME_PATH,
  '/usr/lib/chromium/chromium',
  '/usr/bin/chromium',
  '/usr/bin/google-chrome',
].find((p): p is string => !!p && existsSync(p));
if (CHROME === undefined) throw new Error('no Chromium found: set CHROME_PATH');
if (!existsSync(BRIDGE)) throw new Error(`no ${BRIDGE}: run npm run build`);

const root = mkdtempSync(join(tmpdir(), 'bproxy-bench-bridge-'));
const children: ChildProcess[] = [];
const env = {
  ...process.env,
  BPROXY_HOME: join(root, 'home'),
  BPROXY_BRIDGE_BROWSER: 'local',
  BPROXY_BRIDGE_CHROME: CHROME,
};
const rootArgs = process.getuid?.() === 0 ? ['--no-sandbox'] : [];

/** A minimal CDP client: numbered calls, events to listeners. */
class Client {
  private next = 1;
  private readonly waiting = new Map<number, (m: Record<string, unknown>) => void>();
  readonly events: Record<string, unknown>[] = [];
  onEvent: (m: Record<string, unknown>) => void = () => undefined;

  constructor(private readonly transport: CdpTransport) {
    transport.onmessage = (text) => {
      const message = JSON.parse(text) as Record<string, unknown>;
      if (typeof message.id === 'number') this.waiting.get(message.id)?.(message);
      else this.onEvent(message);
    };
  }

  call(
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
  ): Promise<Record<string, unknown>> {
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.transport.send(
        JSON.stringify(sessionId === undefined ? { id, method, params } : { id, method, params, sessionId }),
      );
    });
  }

  close(): void {
    this.transport.close();
  }
}

async function pageSession(client: Client): Promise<string> {
  const { result } = await client.call('Target.createTarget', { url: 'about:blank' });
  const targetId = (result as { targetId: string }).targetId;
  const attached = await client.call('Target.attachToTarget', { targetId, flatten: true });
  return (attached.result as { sessionId: string }).sessionId;
}

async function roundTrips(client: Client): Promise<number[]> {
  const session = await pageSession(client);
  const times: number[] = [];
  for (let i = 0; i < CALLS + 50; i++) {
    const started = performance.now();
    const answer = await client.call(
      'Runtime.evaluate',
      { expression: `${i} + 1`, returnByValue: true },
      session,
    );
    if ((answer.result as { result: { value: number } }).result.value !== i + 1)
      throw new Error('wrong answer');
    if (i >= 50) times.push(performance.now() - started);
  }
  return times;
}

function waitForLine(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const match = pattern.exec(text);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`exited (${code}): ${text}`)));
  });
}

function start(command: string, args: string[], pipe: boolean): ChildProcess {
  const child = spawn(command, args, {
    env,
    stdio: pipe ? ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  return child;
}

function pipeClient(child: ChildProcess): Client {
  return new Client(createPipeTransport(child.stdio[3] as Writable, child.stdio[4] as Readable));
}

function row(name: string, times: number[], base?: number[]): string {
  const delta = base === undefined ? undefined : pct(times, 50) - pct(base, 50);
  const extra = delta === undefined ? '' : `  (${delta < 0 ? '−' : '+'}${ms(Math.abs(delta))} ms at p50)`;
  return `${name.padEnd(34)} p50 ${ms(pct(times, 50)).padStart(5)} ms   p90 ${ms(pct(times, 90)).padStart(5)} ms${extra}`;
}

function browserPid(profile: string): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (
        (args[0] ?? '').includes('chrom') &&
        args.includes(`--user-data-dir=${profile}`) &&
        !args.some((a) => a.startsWith('--type='))
      )
        return Number(entry);
    } catch {
      // gone while we looked
    }
  }
  throw new Error(`no browser on ${profile}`);
}

try {
  console.log(`bproxy bridge benchmark — ${CALLS} calls per row, load average at start ${load()}`);
  const shared = join(root, 'shared');
  const chromium = start(
    CHROME,
    ['--headless', '--remote-debugging-port=0', `--user-data-dir=${shared}`, ...rootArgs],
    false,
  );
  const direct = new Client(
    await connectWebSocket(await waitForLine(chromium, /DevTools listening on (ws:\S+)/), 10_000),
  );
  const directWs = await roundTrips(direct);

  const ownPipe = start(
    CHROME,
    ['--headless', '--remote-debugging-pipe', `--user-data-dir=${join(root, 'pipe')}`, ...rootArgs],
    true,
  );
  const directPipe = await roundTrips(pipeClient(ownPipe));

  const wsBridge = start(
    BRIDGE,
    ['--remote-debugging-port=0', '--headless', `--user-data-dir=${shared}`],
    false,
  );
  const viaWs = await roundTrips(
    new Client(await connectWebSocket(await waitForLine(wsBridge, /DevTools listening on (ws:\S+)/), 10_000)),
  );

  const pipeBridge = start(
    BRIDGE,
    ['--remote-debugging-pipe', '--headless', `--user-data-dir=${shared}`],
    true,
  );
  const viaPipe = await roundTrips(pipeClient(pipeBridge));

  console.log('\nRuntime.evaluate round trip on a page session');
  console.log(row('direct, WebSocket', directWs));
  console.log(row('direct, pipe (own Chromium)', directPipe));
  console.log(row('bridge, ws mode (attached)', viaWs, directWs));
  console.log(row('bridge, pipe mode (attached)', viaPipe, directWs));

  const profile = join(root, 'recover');
  const bridge = start(
    BRIDGE,
    ['--remote-debugging-port=0', '--headless', `--user-data-dir=${profile}`],
    false,
  );
  const tool = new Client(
    await connectWebSocket(await waitForLine(bridge, /DevTools listening on (ws:\S+)/), 10_000),
  );
  await tool.call('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true });
  const noticed: number[] = [];
  const recovered: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    await tool.call('Browser.getVersion');
    const detached = new Promise<void>((resolve) => {
      tool.onEvent = (m) => {
        if (m.method === 'Target.detachedFromTarget') resolve();
      };
    });
    const killedAt = performance.now();
    process.kill(browserPid(profile), 'SIGKILL');
    await detached;
    noticed.push(performance.now() - killedAt);
    const askedAt = performance.now();
    const answer = await tool.call('Target.getTargets');
    if (answer.error !== undefined) throw new Error(`recovery failed: ${JSON.stringify(answer.error)}`);
    recovered.push(performance.now() - askedAt);
  }
  console.log(`\nRecovery in ws mode (Chromium SIGKILLed, relaunched), ${ROUNDS} rounds`);
  console.log(
    `loss noticed after the kill           p50 ${ms(pct(noticed, 50))} ms   max ${ms(Math.max(...noticed))} ms`,
  );
  console.log(
    `next request answered (relaunch+boot) p50 ${ms(pct(recovered, 50))} ms   max ${ms(Math.max(...recovered))} ms`,
  );
  const total = noticed.map((n, i) => n + (recovered[i] ?? 0));
  console.log(
    `loss to first answered request        p50 ${ms(pct(total, 50))} ms   max ${ms(Math.max(...total))} ms`,
  );

  const gone: number[] = [];
  const bridgeDone: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const closing = join(root, `close-${round}`);
    const bridge = start(
      BRIDGE,
      ['--remote-debugging-port=0', '--headless', `--user-data-dir=${closing}`],
      false,
    );
    const bridgeExited = new Promise<void>((resolve) => bridge.once('exit', () => resolve()));
    const client = new Client(
      await connectWebSocket(await waitForLine(bridge, /DevTools listening on (ws:\S+)/), 10_000),
    );
    await client.call('Browser.getVersion');
    const pid = browserPid(closing);
    const sentAt = performance.now();
    void client.call('Browser.close');
    // Polled (a benchmark, not a test): /proc/PID disappears once the bridge collected its child.
    while (existsSync(`/proc/${pid}/cmdline`) && readFileSync(`/proc/${pid}/cmdline`).length > 0)
      await new Promise((resolve) => setTimeout(resolve, 2));
    gone.push(performance.now() - sentAt);
    await bridgeExited;
    bridgeDone.push(performance.now() - sentAt);
  }
  console.log(`\nClose path (ws mode, launched headless Chromium), ${ROUNDS} rounds`);
  console.log(
    `Browser.close to the browser gone      p50 ${ms(pct(gone, 50))} ms   max ${ms(Math.max(...gone))} ms`,
  );
  console.log(
    `Browser.close to the bridge exited     p50 ${ms(pct(bridgeDone, 50))} ms   max ${ms(Math.max(...bridgeDone))} ms`,
  );
} finally {
  for (const child of children.reverse()) {
    child.kill('SIGTERM');
    if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
  }
  rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}
