/**
 * `npm run bench:farm` — a browser farm against the embedded browser, in one run, through one daemon:
 * `--cdp-mode per-session` on a real browserless farm on 127.0.0.1 (every session its own farm
 * browser) and the embedded headless Chromium (every session a tab of the one browser), same pages,
 * same Chromium binary, fast pacing, over HTTP (the one daemon client, keep-alive).
 *  1. sessions per minute: N agent tasks, C at once — create a session, open the order form, fill it,
 *     send it, check the result, close the session (which closes its farm browser);
 *  2. click latency: one session per side, clicks on the counter page (the final count is checked).
 * Rounds alternate the two sides so that neither gets a quieter machine. A benchmark, not a test: it
 * prints figures. Options: --sessions N (default 12), --concurrency C (default 3), --clicks N (default
 * 100), --rounds R (default 2).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DaemonClient } from '@bproxy/client';
import { startFarm, type Farm } from '../tests/kit/farm';
import { NODE_CLI, cleanupOnInterrupt, load, mustRun, servePages, summary, timed } from './cli-common';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
};
const SESSIONS = arg('--sessions', 12);
const CONCURRENCY = arg('--concurrency', 3);
const CLICKS = arg('--clicks', 100);
const ROUNDS = arg('--rounds', 2);
const SIDES = [
  { name: 'farm (browserless, a browser per session)', browser: 'remote' },
  { name: 'embedded headless Chromium', browser: 'headless' },
] as const;

console.log(`bproxy farm benchmark — load average at start ${load()}`);
const pages = await servePages();
const home = mkdtempSync(join(tmpdir(), 'bproxy-bench-farm-'));
let farm: Farm | undefined;
let client: DaemonClient | undefined;
let env: NodeJS.ProcessEnv = {};

async function cleanup(): Promise<void> {
  client?.close();
  await timed(process.execPath, [NODE_CLI, 'service', 'stop'], env).catch(() => undefined);
  await farm?.close();
  await pages.close();
  rmSync(home, { recursive: true, force: true });
}
cleanupOnInterrupt(cleanup);

async function ok(
  action: string,
  session: string | undefined,
  params: object = {},
): Promise<Record<string, unknown>> {
  if (client === undefined) throw new Error('no daemon client');
  const answer = await client.call(
    action,
    { ...params },
    { timeoutMs: 60_000, ...(session ? { session } : {}) },
  );
  if (!answer.ok) throw new Error(`${action} failed: ${answer.error.code}: ${answer.error.message}`);
  return answer.data;
}

interface TaskTimes {
  /** The whole task, session created to session closed. */
  total: number;
  /** The first tab open: for the farm, a browser started and connected. */
  open: number;
  /** session.close: for the farm, the connection closed (the farm ends that browser). */
  close: number;
}

/** One agent task in a session of its own, from creation to close; its times. */
async function task(browser: string, name: string): Promise<TaskTimes> {
  const started = performance.now();
  const { session } = (await ok('session.create', undefined, { pacing: 'fast', browser })) as {
    session: string;
  };
  const opening = performance.now();
  await ok('tab.open', session, { url: `${pages.origin}/ext-form.html` });
  const open = performance.now() - opening;
  await ok('fill', session, { target: { selector: '#name' }, value: name });
  await ok('click', session, { target: { selector: '#send' } });
  const { text } = (await ok('text', session)) as { text: string };
  if (!text.includes(`name=${name}`)) throw new Error(`the task of ${name} did not send its form: ${text}`);
  const closing = performance.now();
  await ok('session.close', session);
  const end = performance.now();
  return { total: end - started, open, close: end - closing };
}

/** N tasks, C at once: sessions per minute and each task's times. */
async function sessionsPerMinute(browser: string): Promise<{ perMinute: number; tasks: TaskTimes[] }> {
  const tasks: TaskTimes[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < SESSIONS) {
        const n = next++;
        tasks.push(await task(browser, `agent${n}`));
      }
    }),
  );
  return { perMinute: (SESSIONS * 60_000) / (performance.now() - started), tasks };
}

async function clicks(browser: string): Promise<number[]> {
  const { session } = (await ok('session.create', undefined, { pacing: 'fast', browser })) as {
    session: string;
  };
  await ok('tab.open', session, { url: pages.counterUrl });
  const times: number[] = [];
  for (let i = 0; i < CLICKS; i++) {
    const started = performance.now();
    await ok('click', session, { target: { selector: '#inc' } });
    times.push(performance.now() - started);
  }
  const { text } = (await ok('text', session)) as { text: string };
  if (!text.includes(`Count: ${CLICKS}`))
    throw new Error(`${browser}: expected ${CLICKS} clicks, read ${text}`);
  await ok('session.close', session);
  return times;
}

try {
  // One place of headroom: a farm frees a browser's place a moment after its connection closes, so a
  // farm run at exactly bproxy's cap answers the next session 429 now and then (README, Browser farms).
  farm = await startFarm({ concurrent: CONCURRENCY + 1, queued: 0 });
  env = {
    ...process.env,
    BPROXY_HOME: home,
    BPROXY_PORT: '0',
    BPROXY_BROWSER: 'headless',
    BPROXY_CDP_URL: farm.wsUrl,
    BPROXY_CDP_MODE: 'per-session',
    BPROXY_CDP_MAX_BROWSERS: String(CONCURRENCY),
  };
  await mustRun(process.execPath, [NODE_CLI, 'service', 'start'], env);
  client = new DaemonClient({ env: { BPROXY_HOME: home }, keepAlive: true, connections: CONCURRENCY + 1 });

  const perMinute = new Map<string, number[]>(SIDES.map((s) => [s.browser, []]));
  const taskTimes = new Map<string, TaskTimes[]>(SIDES.map((s) => [s.browser, []]));
  const clickTimes = new Map<string, number[]>(SIDES.map((s) => [s.browser, []]));
  // A warm-up task per side: the embedded browser's first launch is not a session's cost.
  for (const side of SIDES) await task(side.browser, 'warmup');
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of round % 2 === 0 ? SIDES : [...SIDES].reverse()) {
      const run = await sessionsPerMinute(side.browser);
      perMinute.get(side.browser)?.push(run.perMinute);
      taskTimes.get(side.browser)?.push(...run.tasks);
      clickTimes.get(side.browser)?.push(...(await clicks(side.browser)));
    }
  }
  console.log(
    `\n${SESSIONS} sessions per round, ${CONCURRENCY} at once, ${ROUNDS} rounds; ${CLICKS} clicks per side per round`,
  );
  for (const side of SIDES) {
    const rates = perMinute.get(side.browser) ?? [];
    const tasks = taskTimes.get(side.browser) ?? [];
    console.log(`\n${side.name}`);
    console.log(
      `  sessions per minute  ${rates.map((r) => r.toFixed(1)).join(', ')} (range ${Math.min(...rates).toFixed(1)}–${Math.max(...rates).toFixed(1)})`,
    );
    console.log(`  one session's task   ${summary(tasks.map((t) => t.total))}`);
    console.log(`    of which tab open  ${summary(tasks.map((t) => t.open))}`);
    console.log(`    and session close  ${summary(tasks.map((t) => t.close))}`);
    console.log(`  click                ${summary(clickTimes.get(side.browser) ?? [])}`);
  }
  console.log(`\nload average at the end ${load()}`);
} finally {
  await cleanup();
}
