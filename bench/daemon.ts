/**
 * `npm run bench:daemon` — HTTP → daemon → fake extension over WS → back, fast pacing.
 * Prints p50/p99 latency at concurrency 1 and 32 on kept-alive connections (the daemon proves itself
 * once per connection), at concurrency 1 with a new connection per call as the CLI makes (a handshake
 * and a proof each), throughput, and the daemon's RSS idle and with 100 sessions. A benchmark, not a test: it asserts nothing and prints figures.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { DaemonClient, type Answer } from '@bproxy/client';

// The child runs as a bundle, like the shipped daemon, so its memory is not the TypeScript loader's.
const childBundle = fileURLToPath(new URL('../.tmp/bench-daemon-child.mjs', import.meta.url));
await esbuild.build({
  entryPoints: [fileURLToPath(new URL('./daemon-child.ts', import.meta.url))],
  outfile: childBundle,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  banner: {
    js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
  },
  logLevel: 'error',
});
const child: ChildProcess = fork(childBundle, {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  execArgv: process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir=.tmp/prof'] : [],
});
const ready = await new Promise<{ port: number; token: string }>((resolve) =>
  child.on('message', (m: { type: string; port: number; token: string }) => m.type === 'ready' && resolve(m)),
);
// The one daemon client, on the port and token the child reported (it has no BPROXY_HOME of its own).
const client = new DaemonClient({
  endpoint: { home: 'the benchmark daemon', port: ready.port, token: ready.token },
  keepAlive: true,
  connections: 64,
});
const call = (action: string, session?: string, params: Record<string, unknown> = {}) =>
  client.call(action, params, { timeoutMs: 30_000, ...(session === undefined ? {} : { session }) });
const sessionOf = (answer: Answer): string =>
  answer.ok && typeof answer.data.session === 'string' ? answer.data.session : '';

function rss(): Promise<{ rss: number; heapUsed: number }> {
  return new Promise((resolve) => {
    child.once('message', (m: { rss: number; heapUsed: number }) => resolve(m));
    child.send({ type: 'rss' });
  });
}
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

const idle = await rss();
const opened = await call('tab.open', undefined, { url: 'http://bench/' });
const session = sessionOf(opened);

async function run(concurrency: number, total: number): Promise<{ lat: number[]; seconds: number }> {
  const lat: number[] = [];
  let issued = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (issued < total) {
        issued++;
        const t = performance.now();
        const res = await call('click', session, { target: { selector: '#b' } });
        if (!res.ok) throw new Error(JSON.stringify(res));
        lat.push(performance.now() - t);
      }
    }),
  );
  return { lat: lat.sort((a, b) => a - b), seconds: (performance.now() - start) / 1000 };
}

await run(8, 2_000); // warm-up
const c1 = await run(1, 3_000);

// A new connection per call, as a CLI run makes: each pays a TCP handshake and the daemon's proof.
const oneShot = new DaemonClient({
  endpoint: { home: 'the benchmark daemon', port: ready.port, token: ready.token },
});
async function runOneShot(total: number): Promise<{ lat: number[]; seconds: number }> {
  const lat: number[] = [];
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const t = performance.now();
    const res = await oneShot.call('click', { target: { selector: '#b' } }, { session, timeoutMs: 30_000 });
    if (!res.ok) throw new Error(JSON.stringify(res));
    lat.push(performance.now() - t);
  }
  return { lat: lat.sort((a, b) => a - b), seconds: (performance.now() - start) / 1000 };
}
await runOneShot(200); // warm-up
const perCall = await runOneShot(1_000);
oneShot.close();
// Concurrency across 32 tabs: per-tab serialization would otherwise make 32 clients one queue.
const sessions: string[] = [];
for (let i = 0; i < 100; i++) {
  const r = await call('tab.open', undefined, { url: 'http://bench/' });
  sessions.push(sessionOf(r));
}
const withSessions = await rss();
async function runSpread(concurrency: number, total: number) {
  const lat: number[] = [];
  let issued = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      while (issued < total) {
        issued++;
        const t = performance.now();
        const res = await call('click', sessions[w % sessions.length], { target: { selector: '#b' } });
        if (!res.ok) throw new Error(JSON.stringify(res));
        lat.push(performance.now() - t);
      }
    }),
  );
  return { lat: lat.sort((a, b) => a - b), seconds: (performance.now() - start) / 1000 };
}
await runSpread(32, 3_000); // warm-up
const c32 = await runSpread(32, 20_000);

const line = (name: string, r: { lat: number[]; seconds: number }) =>
  `${name.padEnd(16)} p50 ${pct(r.lat, 50).toFixed(2)} ms  p99 ${pct(r.lat, 99).toFixed(2)} ms  ${Math.round(r.lat.length / r.seconds)} actions/s`;
console.log('bproxy daemon benchmark (HTTP → daemon → fake extension over WS → back, fast pacing)');
console.log(line('concurrency 1', c1));
console.log(line('concurrency 32', c32));
console.log(line('one-shot (CLI)', perCall));
console.log(`RSS idle         ${mb(idle.rss)} (heap ${mb(idle.heapUsed)})`);
console.log(`RSS 100 sessions ${mb(withSessions.rss)} (heap ${mb(withSessions.heapUsed)})`);
child.kill('SIGINT');
client.close();
