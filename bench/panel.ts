/**
 * `npm run bench:panel` — the side panel's main thread while a hostile answer streams in. The real
 * stack: headless Chromium with the built extension, the real native host and agent, the real daemon,
 * and a scripted model server (OpenAI streaming format) sending each answer in 4-character deltas as
 * fast as the agent reads them. In the panel page (opened for one tab, at side-panel size) a
 * PerformanceObserver records every long task (≥ 50 ms, the browser's threshold) and a frame loop the
 * longest gap between two animation frames. Per answer: the longest main-thread stall (longest task),
 * the time in long tasks, the longest frame gap, and how long the answer took from sending the
 * message to its end shown in the panel. Target: longest stall under 100 ms. A benchmark, not a test:
 * it prints figures. Option: --deadline S (default 180), after which an answer still rendering is
 * reported as not finished.
 */
import { startModelServer, type TrickleProgress } from '../packages/agent/test/helpers/model-server';
import { serveFixtures } from '../tests/kit/pages';
import { until } from '../tests/kit/wait';
import { launchWithNativeHost } from '../tests/kit/native-host';
import { load, ms } from './cli-common';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
};
const DEADLINE_MS = arg('--deadline', 180) * 1000;
const TARGET_MS = 100;

const nested = (() => {
  const lines: string[] = [];
  for (let depth = 0, size = 0; size < 16_000; depth++) {
    const line = `${' '.repeat(depth)}- level ${depth}`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${'> '.repeat(4_000)}deep\n\n${lines.join('\n')}`;
})();

const ANSWERS: readonly { name: string; text: string }[] = [
  { name: 'plain text, 16 KB', text: 'plain words here '.repeat(1_000).slice(0, 16_000) },
  { name: '`**a ` × 2,000 (8 KB)', text: '**a '.repeat(2_000) },
  { name: '`*a ` × 8,000 (24 KB)', text: '*a '.repeat(8_000) },
  { name: 'deep nesting: 4,000 quotes, a 177-level list (24 KB)', text: nested },
];

interface Stalls {
  longest: number;
  total: number;
  tasks: number;
  frameGap: number;
}

console.log(`bproxy side-panel streaming benchmark — load average at start ${load()}`);
const pages = await serveFixtures();
const model = await startModelServer();
const machine = await launchWithNativeHost('bproxy-bench-panel-');
try {
  await machine.connected();
  await machine.cli.ok([
    'agent',
    'config',
    '--provider',
    'openai',
    '--base-url',
    `${model.baseUrl}/v1`,
    '--fast',
    'model-fast',
    '--strong',
    'model-strong',
  ]);
  const rows: string[] = [];
  for (const answer of ANSWERS) {
    const tab = await machine.browser.context.newPage();
    await tab.goto(pages.url('ext-counter.html'));
    const worker = await machine.browser.worker();
    const tabId = await worker.evaluate(async (u) => {
      const api = (
        globalThis as unknown as { chrome: { tabs: { query(q: object): Promise<{ id?: number }[]> } } }
      ).chrome;
      const [found] = await api.tabs.query({ url: u });
      return found?.id ?? null;
    }, tab.url());
    if (tabId === null) throw new Error('the tab has no id');
    const panel = await machine.browser.context.newPage();
    await panel.setViewportSize({ width: 400, height: 800 });
    await panel.goto(`chrome-extension://${machine.browser.extensionId}/panel.html?tab=${tabId}`);
    await panel.click('#tab-chat');
    await until('the agent settings', async () => (await panel.textContent('#chat-provider')) === 'openai');
    // As source text: a function here would carry the TypeScript loader's helpers into the page.
    await panel.evaluate(`(() => {
      const stalls = { longest: 0, total: 0, tasks: 0, frameGap: 0 };
      globalThis.stalls = stalls;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          stalls.longest = Math.max(stalls.longest, entry.duration);
          stalls.total += entry.duration;
          stalls.tasks += 1;
        }
      }).observe({ type: 'longtask' });
      let last = performance.now();
      const frame = (at) => {
        stalls.frameGap = Math.max(stalls.frameGap, at - last);
        last = at;
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    })()`);
    const progress: TrickleProgress = { sent: 0, total: 0, closedAt: null };
    model.push({ trickle: answer.text, piece: 4, end: true, progress });
    const started = performance.now();
    await panel.fill('#chat-input', 'stream it');
    await panel.click('#chat-send');
    let finished = true;
    await until(
      'the answer to end in the panel',
      async () => (await panel.locator('.answer-meta').count()) > 0,
      DEADLINE_MS,
    ).catch(() => {
      finished = false;
    });
    const took = performance.now() - started;
    const stalls = (await panel.evaluate('globalThis.stalls')) as Stalls;
    const longest = stalls.tasks === 0 ? '< 50' : ms(stalls.longest);
    rows.push(
      `${answer.name.padEnd(54)} longest stall ${longest.padStart(8)} ms · ${String(stalls.tasks).padStart(4)} long tasks, ${ms(stalls.total).padStart(8)} ms · frame gap ${ms(stalls.frameGap).padStart(8)} ms · ${progress.sent} deltas · ${finished ? `shown in ${ms(took)} ms` : `not finished after ${ms(took)} ms`}${stalls.longest < TARGET_MS && finished ? '' : '  ← over target'}`,
    );
    console.log(rows.at(-1));
    await panel.close();
    await tab.close();
  }
  console.log(`target: longest stall under ${TARGET_MS} ms while the answer streams`);
} finally {
  await machine.close();
  await model.close();
  await pages.close();
}
