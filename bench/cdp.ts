/**
 * `npm run bench:cdp` — the CDP driver (the daemon's embedded headless Chromium), fast pacing:
 *  1. over HTTP: click and text latency p50/p90 on the counter page, snapshot bytes and time over
 *     every page of the corpus
 *     (`--pages DIR`, BPROXY_BENCH_PAGES, or the project's own tests/fixtures/corpus);
 *  2. whole processes, side by side in the same run: the bproxy CLI on Node, the compiled bproxy CLI
 *     and the agent-browser CLI (same Chromium binary) for open, snapshot and click;
 *  3. the compiled CLI against its one-call floor (bench/cli-floor.ts): click, text, session list and
 *     --version beside the floor's same POST, and agent-browser's click, in interleaved rounds;
 *  4. CLI start-up (`--version`) against a bare `node -e 0`.
 * A benchmark, not a test: it prints figures. Options: --clicks N (HTTP, default 200), --cli-clicks N
 * (default 30), --cli-pages N (open/snapshot pages per CLI, default 12), --floor-rounds N (default 50),
 * --startup N (default 30); --floor-only runs part 3 alone.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  agentBrowserTool,
  bproxyTool,
  compareClis,
  compareStartup,
  printCliFigures,
  type CliTool,
} from './cli-compare';
import {
  DaemonHttp,
  NODE_CLI,
  ROOT,
  ensureNativeCli,
  load,
  mustRun,
  servePages,
  summary,
  timed,
  cleanupOnInterrupt,
} from './cli-common';
import {
  compileFloor,
  printClickTargets,
  printFloorFigures,
  timeRounds,
  type TimedCommand,
} from './cli-floor';
import { pageCorpusOrExit } from '../scripts/page-corpus.mjs';
import { fastSession, measureHttp, printHttpFigures } from './cli-http';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
};
const floorOnly = process.argv.includes('--floor-only');
const CHROME_CANDIDATES = ['/usr/lib/chromium/chromium', '/usr/bin/chromium', '/usr/bin/google-chrome'];
const chrome = [process.env.CHROME_PATH, ...CHROME_CANDIDATES].find((p): p is string => !!p && existsSync(p));
if (chrome === undefined) throw new Error('no Chromium found: set CHROME_PATH');

function agentBrowserBinary(): string | null {
  const bin = join(
    ROOT,
    'node_modules',
    'agent-browser',
    'bin',
    `agent-browser-${process.platform}-${process.arch}`,
  );
  if (!existsSync(bin)) return null;
  // Its postinstall (which sets the mode) may not have run.
  if ((statSync(bin).mode & 0o100) === 0) chmodSync(bin, 0o755);
  return bin;
}

const corpus = pageCorpusOrExit();
console.log(`bproxy CDP benchmark — load average at start ${load()}`);
const native = await ensureNativeCli();
const pages = await servePages(corpus);
const home = mkdtempSync(join(tmpdir(), 'bproxy-bench-cdp-'));
const abHome = mkdtempSync(join(tmpdir(), 'bproxy-bench-ab-'));
const env = { ...process.env, BPROXY_HOME: home, BPROXY_PORT: '0', CHROME_PATH: chrome, BPROXY_SESSION: '' };
const agentBrowser = agentBrowserBinary();
const abEnv = {
  ...process.env,
  HOME: abHome,
  AGENT_BROWSER_EXECUTABLE_PATH: chrome,
  AGENT_BROWSER_ARGS:
    '--no-sandbox,--disable-gpu,--disable-quic,--no-first-run,--disable-background-networking,--disable-component-update,--disable-sync',
  AGENT_BROWSER_NO_VERSION_CHECK: '1',
  AGENT_BROWSER_SESSION: 'bproxybench',
};
let http: DaemonHttp | undefined;
async function cleanup(): Promise<void> {
  http?.close();
  if (agentBrowser !== null) await timed(agentBrowser, ['close', '--all'], abEnv).catch(() => undefined);
  await timed(process.execPath, [NODE_CLI, 'service', 'stop'], env).catch(() => undefined);
  await pages.close();
  rmSync(home, { recursive: true, force: true });
  rmSync(abHome, { recursive: true, force: true });
}
cleanupOnInterrupt(cleanup);
try {
  await mustRun(process.execPath, [NODE_CLI, 'service', 'start'], env);
  http = DaemonHttp.fromHome(home);

  if (!floorOnly) {
    const figures = await measureHttp(http, pages, {
      clicks: arg('--clicks', 200),
      texts: arg('--clicks', 200),
    });
    printHttpFigures('CDP driver over HTTP (POST / with the token, keep-alive, fast pacing)', figures);
  }

  const session = await fastSession(http, pages.counterUrl);
  if (!floorOnly) {
    const tools: CliTool[] = [bproxyTool('bproxy (Node)', process.execPath, [NODE_CLI], env, session)];
    if (native !== null) tools.push(bproxyTool('bproxy (compiled)', native, [], env, session));
    if (agentBrowser !== null) tools.push(agentBrowserTool(agentBrowser, abEnv));
    else console.log('\n(agent-browser is not installed: npm install)');
    const n = arg('--cli-pages', 12);
    const step = Math.max(1, Math.floor(pages.quietPages.length / n));
    const urls = pages.quietPages
      .filter((_, i) => i % step === 0)
      .slice(0, n)
      .map(pages.benchUrl);
    const cli = await compareClis(tools, urls, pages.counterUrl, arg('--cli-clicks', 30));
    console.log(
      `\nCLIs as whole processes (open = navigate the session's tab; ${urls.length} pages; load ${load()})`,
    );
    printCliFigures(cli, 'agent-browser');
  }

  if (native !== null) {
    const floor = compileFloor();
    const click = JSON.stringify({ target: { selector: '#inc' } });
    const commands: TimedCommand[] = [
      { name: 'floor: click', command: floor, args: ['click', session, click], env },
      { name: 'bproxy click', command: native, args: ['-s', session, 'click', '--selector', '#inc'], env },
      { name: 'floor: text', command: floor, args: ['text', session], env },
      { name: 'bproxy text', command: native, args: ['-s', session, 'text'], env },
      { name: 'floor: session.list', command: floor, args: ['session.list'], env },
      { name: 'bproxy session list', command: native, args: ['session', 'list'], env },
      { name: 'bproxy --version', command: native, args: ['--version'], env },
    ];
    if (agentBrowser !== null) {
      // Its own browser on the same Chromium binary, on the same counter page.
      await mustRun(agentBrowser, ['open', pages.counterUrl], abEnv);
      commands.push({
        name: 'agent-browser click',
        command: agentBrowser,
        args: ['click', '#inc'],
        env: abEnv,
      });
    }
    const rounds = arg('--floor-rounds', 50);
    const times = await timeRounds(commands, rounds);
    printFloorFigures(
      times,
      [
        { of: 'bproxy click', floor: 'floor: click' },
        { of: 'bproxy text', floor: 'floor: text' },
        { of: 'bproxy session list', floor: 'floor: session.list' },
      ],
      rounds,
    );
    printClickTargets(
      times,
      { of: 'bproxy click', floor: 'floor: click' },
      agentBrowser === null ? undefined : 'agent-browser click',
    );
  }
  if (!floorOnly) {
    const startup = await compareStartup(
      [
        { name: 'node -e 0', command: process.execPath, args: ['-e', '0'], env },
        { name: 'bproxy (Node) --version', command: process.execPath, args: [NODE_CLI, '--version'], env },
        ...(native === null
          ? []
          : [{ name: 'bproxy (compiled) --version', command: native, args: ['--version'], env }]),
        ...(agentBrowser === null
          ? []
          : [{ name: 'agent-browser --version', command: agentBrowser, args: ['--version'], env: abEnv }]),
      ],
      arg('--startup', 30),
    );
    console.log('\nStart-up (whole process, no daemon involved)');
    for (const [name, runs] of startup) console.log(`  ${name.padEnd(28)} ${summary(runs)}`);
  }
  console.log(`\nload average at the end ${load()}`);
} finally {
  await cleanup();
}
