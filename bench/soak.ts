/**
 * `npm run soak [-- --minutes N] [-- --agents N]` — a long run of the daemon (in this process, with
 * the real embedded headless Chromium) under several agents acting at a steady rate, with random
 * faults: the browser killed, the event loop stalled, a misbehaving WebSocket client, requests with
 * deadlines too short to make. Prints, per window, request count, error mix, latency percentiles, RSS,
 * heap and open handles. Exits 0 when every request got one answer (retries the same one), nothing was
 * left pending at the end and memory plateaued; 1 otherwise.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import {
  DEFAULT_DOWNLOAD_MAX_BYTES,
  DEFAULT_EXTENSION_ID,
  PROTOCOL_VERSION,
  wsAuthProtocol,
} from '@bproxy/protocol';
import { browserLaunchers } from '../packages/daemon/src/lifecycle/browser-launchers';
import { createLogger } from '../packages/daemon/src/logs/logger';
import { buildServer } from '../packages/daemon/src/http/server';
import { Agent, SoakClient, Windows, percentile, serveDir, violations } from './soak-parts';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}
const minutes = arg('minutes', 10);
const agentCount = arg('agents', 4);
const windowMs = Math.max(5_000, (minutes * 60_000) / 12);
const tickMs = 250;
const RETENTION_MS = 60_000;
/** Caches fill for this long (answers 60 s, handles 120 s, the CDP driver's 1000 answers): then flat. */
const WARMUP_MS = 150_000;

const CANDIDATES = ['/usr/lib/chromium/chromium', '/usr/bin/chromium', '/usr/bin/google-chrome'];
process.env.CHROME_PATH ??= CANDIDATES.find((p) => {
  try {
    readFileSync(p, { flag: 'r' }).subarray(0, 0);
    return true;
  } catch {
    return false;
  }
});

const home = mkdtempSync(join(tmpdir(), 'bproxy-soak-'));
const token = randomBytes(32).toString('hex');
const extensionToken = randomBytes(32).toString('base64url');
const log = createLogger({ dir: join(home, 'logs'), level: 'info' });
const server = await buildServer({
  port: 0,
  daemonToken: token,
  extensionIds: [DEFAULT_EXTENSION_ID],
  extensionTokens: { get: () => extensionToken, set: async () => undefined },
  logger: log.logger,
  tmpRoot: home,
  launchers: browserLaunchers(
    {
      browser: 'headless',
      attach: null,
      cdpUrl: null,
      cdpMode: 'shared',
      maxBrowsers: 1,
      browserIdleMs: null,
      allowFileUrls: false,
      downloadMaxBytes: DEFAULT_DOWNLOAD_MAX_BYTES,
      profile: null,
    },
    home,
  ),
  // Answers are kept for retries 10 min by default: a bounded cache that would still be filling at the
  // end of a 10-minute run. Kept 60 s here so that every bounded cache is full after ~2 min and what
  // grows after that is a leak.
  answerRetentionMs: RETENTION_MS,
});
const port = await server.listen();
const pages = await serveDir(fileURLToPath(new URL('../tests/fixtures/pages/', import.meta.url)));
const windows = new Windows();
const client = new SoakClient(port, token, windows);
const agents = Array.from({ length: agentCount }, () => new Agent(client, pages, 'headless'));

/** Browser processes we launched: children of this process named like Chromium. */
function chromiumChildren(): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const ppid = Number(stat.slice(close + 2).split(' ')[1]);
      if (ppid === process.pid && /chrom/i.test(stat.slice(stat.indexOf('(') + 1, close)))
        found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

const faults = { browserKilled: 0, loopStalled: 0, badClient: 0 };
async function injectFault(): Promise<void> {
  const pick = Math.floor(Math.random() * 3);
  if (pick === 0) {
    const pids = chromiumChildren();
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    if (pids.length > 0) faults.browserKilled++;
  } else if (pick === 1) {
    const end = performance.now() + 500 + Math.random() * 1500;
    while (performance.now() < end) {
      // the event loop stalled: daemon, agents and browser connection all wait
    }
    faults.loopStalled++;
  } else {
    // A client that connects, sends garbage and a bogus answer, then vanishes without a close.
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, ['bproxy.v1', wsAuthProtocol(extensionToken)], {
      headers: { origin: `chrome-extension://${DEFAULT_EXTENSION_ID}` },
    });
    ws.on('error', () => undefined);
    await new Promise<void>((resolve) => {
      ws.on('open', () => {
        ws.send(
          `{"type":"hello","protocolVersion":${PROTOCOL_VERSION},"client":{"instanceId":"soakbadclient","kind":"cdp"}}`,
        );
        ws.send('{not json');
        ws.send(JSON.stringify({ type: 'response', id: 'nope', ok: true, data: {} }));
        setTimeout(() => {
          ws.terminate();
          resolve();
        }, 200);
      });
      ws.on('close', () => resolve());
    });
    faults.badClient++;
  }
}

const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
function handles(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of process.getActiveResourcesInfo()) counts[r] = (counts[r] ?? 0) + 1;
  return counts;
}
const heapSamples: number[] = [];
function report(elapsedMs: number): void {
  const samples = windows.roll();
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  const codes: Record<string, number> = {};
  for (const s of samples) codes[s.code] = (codes[s.code] ?? 0) + 1;
  (globalThis as { gc?: () => void }).gc?.();
  const mem = process.memoryUsage();
  heapSamples.push(mem.heapUsed);
  const h = handles();
  console.log(
    `${(elapsedMs / 1000).toFixed(0).padStart(5)}s  n=${String(samples.length).padStart(4)}  ` +
      `p50=${percentile(sorted, 50).toFixed(0)} p90=${percentile(sorted, 90).toFixed(0)} ` +
      `p99=${percentile(sorted, 99).toFixed(0)} max=${percentile(sorted, 100).toFixed(0)} ms  ` +
      `rss=${mb(mem.rss)} heap=${mb(mem.heapUsed)} MB  handles=${JSON.stringify(h)}  ` +
      `codes=${JSON.stringify(codes)}`,
  );
}

console.log(
  `soak: ${minutes} min, ${agentCount} agents, one action each per ${tickMs} ms, window ${windowMs / 1000} s`,
);
const start = performance.now();
const endAt = start + minutes * 60_000;
let nextWindow = start + windowMs;
let nextFault = start + 10_000 + Math.random() * 20_000;
let running = true;

const loops = agents.map(async (agent) => {
  while (running) {
    const t = performance.now();
    await agent.tick().catch(() => undefined);
    await new Promise((r) => setTimeout(r, Math.max(0, tickMs - (performance.now() - t))));
  }
});
while (performance.now() < endAt) {
  await new Promise((r) => setTimeout(r, 200));
  const now = performance.now();
  if (now >= nextFault) {
    await injectFault();
    nextFault = now + 15_000 + Math.random() * 30_000;
  }
  if (now >= nextWindow) {
    report(now - start);
    nextWindow += windowMs;
  }
}
running = false;
await Promise.all(loops);
for (const agent of agents) await agent.close().catch(() => undefined);
client.close();

const { deps } = server;
const idleBy = performance.now() + 20_000;
while (
  (deps.pending.inFlight > 0 || deps.pending.awaitingAnswer > 0 || deps.queues.size > 0) &&
  performance.now() < idleBy
)
  await new Promise((r) => setTimeout(r, 50));
const idle = deps.pending.inFlight === 0 && deps.pending.awaitingAnswer === 0 && deps.queues.size === 0;
if (!idle)
  violations.push(`not idle at the end: ${deps.pending.inFlight} admitted, ${deps.queues.size} queues`);

// Plateau: after the warm-up, the heap in the last half is not more than 20% (+8 MB) above the
// first half. A run too short to have a steady state says so and is judged on the invariants alone.
const steady = heapSamples.filter((_, i) => (i + 1) * windowMs >= WARMUP_MS);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const half = Math.floor(steady.length / 2);
const first = median(steady.slice(0, half));
const last = median(steady.slice(half));
const judged = steady.length >= 4;
const plateau = !judged || last <= first * 1.2 + 8 * 1024 * 1024;
if (!plateau) violations.push(`heap grew from ${mb(first)} MB to ${mb(last)} MB after the warm-up`);

const total = windows.all.reduce((n, w) => n + w.length, 0);
console.log(
  `\nrequests ${total}, agent actions ${agents.reduce((n, a) => n + a.actions, 0)}, faults ${JSON.stringify(faults)}`,
);
console.log(
  judged
    ? `heap after warm-up: median ${mb(first)} MB in the first half, ${mb(last)} MB in the last half`
    : `run shorter than the ${WARMUP_MS / 60_000} min warm-up + 4 windows: memory plateau not judged`,
);
console.log(`handles at the end ${JSON.stringify(handles())}`);
await server.shutdown(2_000);
await pages.close();
await log.destination?.end();
if (violations.length > 0) {
  console.log(
    `FAIL: ${violations.length} invariant violation(s):\n  ${violations.slice(0, 20).join('\n  ')}`,
  );
  process.exit(1);
}
console.log(
  `PASS: one answer per request, retries consistent, idle at the end${judged ? ', memory plateaued' : ''}`,
);
process.exit(0);
