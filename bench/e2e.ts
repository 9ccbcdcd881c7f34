/**
 * `npm run bench:e2e` — the extension driver end to end, fast pacing: headless Chromium with the
 * built MV3 extension (tests/kit/extension.ts), paired through its popup with the code that
 * `bproxy service start --browser none` printed, so the extension is the only driver. Prints:
 *  1. over HTTP (POST / with the token): click and text latency p50/p90 on the counter page (the final
 *     count is checked), snapshot bytes and time over every page of the corpus
 *     (`--pages DIR`, BPROXY_BENCH_PAGES, or the project's own tests/fixtures/corpus);
 *  2. through the CLI as whole processes (Node and compiled): click and text p50/p90.
 * A benchmark, not a test. Options: --clicks N (HTTP, default 200), --cli N (default 30).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  pairThroughPopup,
  EXTENSION_DIR,
  launchWithExtension,
  type ExtensionBrowser,
} from '../tests/kit/extension';
import { until } from '../tests/kit/wait';
import { bproxyTool, printActionTimes, timeActions, type CliTool } from './cli-compare';
import {
  DaemonHttp,
  NODE_CLI,
  cleanupOnInterrupt,
  ensureNativeCli,
  load,
  mustRun,
  servePages,
  timed,
} from './cli-common';
import { pageCorpusOrExit } from '../scripts/page-corpus.mjs';
import { fastSession, measureHttp, printHttpFigures, readCount } from './cli-http';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
};

interface Status {
  clients: { name: string; kind: string; connected: boolean }[];
}

if (!existsSync(join(EXTENSION_DIR, 'manifest.json'))) throw new Error('build first: npm run build');
const corpus = pageCorpusOrExit();
console.log(`bproxy extension benchmark — load average at start ${load()}`);
const native = await ensureNativeCli();
const pages = await servePages(corpus);
const home = mkdtempSync(join(tmpdir(), 'bproxy-bench-e2e-'));
const env = { ...process.env, BPROXY_HOME: home, BPROXY_PORT: '0', BPROXY_SESSION: '' };
let browser: ExtensionBrowser | undefined;
let http: DaemonHttp | undefined;
async function cleanup(): Promise<void> {
  http?.close();
  await browser?.close();
  await timed(process.execPath, [NODE_CLI, 'service', 'stop'], env).catch(() => undefined);
  await pages.close();
  rmSync(home, { recursive: true, force: true });
}
cleanupOnInterrupt(cleanup);
try {
  const started = JSON.parse(
    (await mustRun(process.execPath, [NODE_CLI, 'service', 'start', '--browser', 'none'], env)).stdout,
  ) as { port: number; pairingCode: string };
  http = DaemonHttp.fromHome(home);
  const client = http;
  browser = await launchWithExtension();
  const outcome = await pairThroughPopup(browser, started.pairingCode, started.port);
  const extension = await until(
    'the extension to connect',
    async () => {
      const status = (await client.ok('debug.status', undefined)) as unknown as Status;
      return status.clients.find((c) => c.kind === 'extension' && c.connected);
    },
    15_000,
  ).catch((error: unknown) => {
    throw new Error(`pairing said "${outcome}": ${String(error)}`);
  });
  console.log(`extension "${extension.name}" paired and connected`);

  const figures = await measureHttp(http, pages, {
    clicks: arg('--clicks', 200),
    texts: arg('--clicks', 200),
    browser: extension.name,
  });
  printHttpFigures('Extension driver over HTTP (POST / with the token, keep-alive, fast pacing)', figures);

  const session = await fastSession(http, pages.counterUrl, extension.name);
  const tools: CliTool[] = [bproxyTool('bproxy (Node)', process.execPath, [NODE_CLI], env, session)];
  if (native !== null) tools.push(bproxyTool('bproxy (compiled)', native, [], env, session));
  const n = arg('--cli', 30);
  const clicks = await timeActions(tools, (t) => t.click(), n);
  const count = await readCount(http, session);
  if (count !== n * tools.length + tools.length)
    throw new Error(`the counter shows ${count} after ${n * tools.length + tools.length} CLI clicks`);
  const texts = await timeActions(tools, (t) => t.text(), n);
  console.log(`\nExtension driver through the CLI, whole processes (load ${load()})`);
  printActionTimes({ click: clicks, text: texts });
  console.log(`\nload average at the end ${load()}`);
} finally {
  await cleanup();
}
