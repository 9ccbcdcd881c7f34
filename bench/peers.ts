/**
 * `npm run bench:peers`: bproxy's MCP server against @playwright/mcp, chrome-devtools-mcp and
 * agent-browser, one after the other on this machine, all through the same MCP client (the SDK's Client
 * over stdio) and the same Chromium binary, over the same pages. Measures the tool list, navigate and
 * snapshot per bench page, 30 clicks on a counter (checking the count), memory, and a task replay
 * (bench/peers-tasks.ts: the bytes an agent reads per step and per task, bproxy with and without
 * `--diff` against agent-browser with and without its delta snapshots); writes docs/benchmarks.md,
 * docs/benchmarks.svg and the README headline.
 * Pages: `--pages DIR` or BPROXY_BENCH_PAGES, by default the project's own corpus (tests/fixtures/corpus).
 * Options: --sample N (an even sample of N of those pages), --clicks N, --only NAME, --no-tasks,
 * --tools-only (the tool lists alone), --no-write.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import * as prettier from 'prettier';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_CORPUS, pageCorpusOrExit, type PageCorpus } from '../scripts/page-corpus.mjs';
import { peerServers, type PeerServer, type ToolCall } from './peers-servers';
import { livePids, memoryOf, newProcesses, servePages } from './peers-system';
import { writeReport, type ServerResult } from './peers-report';
import { benchTasks, replayTask, type TaskResult } from './peers-tasks';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = join(ROOT, 'tests', 'fixtures', 'pages');
const CALL_TIMEOUT_MS = 60_000;
/** The task replay's pages: always the project's own corpus (its shop pages act), whatever --pages says. */
const REPLAY = '/replay/';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function chromium(): string {
  return process.env.CHROME_PATH ?? '/usr/lib/chromium/chromium';
}

function samplePages(all: string[], n: number | undefined): string[] {
  if (n === undefined || n >= all.length) return all;
  return Array.from({ length: n }, (_, i) => all[Math.floor((i * all.length) / n)] ?? '').filter(Boolean);
}

interface Reply {
  text: string;
  isError: boolean;
}

async function run(client: Client, call: ToolCall): Promise<Reply & { ms: number }> {
  const started = performance.now();
  const result = await client.callTool(call, undefined, { timeout: CALL_TIMEOUT_MS });
  const ms = performance.now() - started;
  const content = (result.content ?? []) as { type: string; text?: string }[];
  const text = content
    .filter((c) => c.type === 'text')
    .map((c) => c.text ?? '')
    .join('\n');
  return { text, isError: result.isError === true, ms };
}

const log = (line: string) => process.stderr.write(`${line}\n`);

const DIALOG = /dialog|modal state/i;

/**
 * One step as an agent would take it: when the reply says a JavaScript dialog is open (some bench
 * pages call alert() while loading), answer dialogs with the server's own tool until none is left,
 * then retry the step once. The step's time includes those calls. Returns the last reply.
 */
async function step(
  client: Client,
  server: PeerServer,
  make: () => ToolCall,
  retry: boolean,
): Promise<Reply & { ms: number; dialogs: number }> {
  let reply: Reply & { ms: number };
  try {
    reply = await run(client, make());
  } catch (error) {
    // A server whose call hangs on a dialog (no reply at all): answer it so the next pages can load.
    if (server.dismissDialog) await run(client, server.dismissDialog()).catch(() => {});
    throw error;
  }
  let total = reply.ms;
  let dialogs = 0;
  const dismiss = server.dismissDialog;
  if (!DIALOG.test(reply.text) || dismiss === undefined) return { ...reply, dialogs };
  for (let i = 0; i < 6; i++) {
    const answered = await run(client, dismiss());
    total += answered.ms;
    if (answered.isError) break;
    dialogs++;
  }
  if (retry || reply.isError) {
    if (!retry) return { ...reply, isError: false, ms: total, dialogs };
    reply = await run(client, make());
    total += reply.ms;
  }
  return { ...reply, ms: total, dialogs };
}

/** Every page of tools/list (agent-browser pages its long list). */
async function listTools(client: Client): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

/**
 * The tool list with every group open: a server with a `capabilities` tool (bproxy) is asked to open
 * all it offers, then listed again; a server whose groups are chosen at start (`fullArgs`) is started
 * a second time with all of them, only to list its tools; any other server's list is the one it gave.
 */
async function fullToolList(client: Client, server: PeerServer, cwd: string, tools: Tool[]): Promise<Tool[]> {
  const capabilities = tools.find((t) => t.name === 'capabilities');
  const open = (capabilities?.inputSchema.properties?.open as { items?: { enum?: unknown } } | undefined)
    ?.items?.enum;
  if (Array.isArray(open)) {
    await client.callTool({ name: 'capabilities', arguments: { open } });
    return listTools(client);
  }
  if (server.fullArgs === undefined) return tools;
  const transport = new StdioClientTransport({
    command: server.command,
    args: [...server.args, ...server.fullArgs],
    cwd,
    env: { ...(process.env as Record<string, string>), ...server.env },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', () => {});
  const lister = new Client({ name: 'bproxy-bench', version: '1.0.0' });
  try {
    await lister.connect(transport);
    return await listTools(lister);
  } finally {
    await lister.close().catch(() => {});
  }
}

/** The task replay in each of the server's read modes, each task on its own address (a fresh read baseline). */
async function replayTasks(client: Client, server: PeerServer, origin: string): Promise<TaskResult[]> {
  const out: TaskResult[] = [];
  const tasks = benchTasks(join(DEFAULT_CORPUS, 'shop-listing.html'));
  for (const [m, mode] of (server.taskModes ?? []).entries())
    for (const [t, task] of tasks.entries()) {
      const result = await replayTask(
        async (c) => {
          const reply = await run(client, c);
          if (process.env.BPROXY_BENCH_REPLAY_LOG)
            appendFileSync(
              process.env.BPROXY_BENCH_REPLAY_LOG,
              `>>> ${server.name} ${mode.mode} ${JSON.stringify(c)}\n${reply.text}\n`,
            );
          return reply;
        },
        mode,
        task,
        `${origin}${REPLAY}${task.page}?replay=${m}-${t}`,
      );
      out.push(result);
      log(
        `${server.name} ${mode.mode}: ${task.name} — ${result.bytes} bytes${result.done ? '' : `, NOT DONE (${result.note})`}`,
      );
    }
  return out;
}

async function benchServer(
  server: PeerServer,
  origin: string,
  pages: string[],
  clicks: number,
): Promise<ServerResult> {
  const withTasks = !process.argv.includes('--no-tasks');
  const toolsOnly = process.argv.includes('--tools-only');
  const baseline = livePids();
  const cwd = mkdtempSync(join(tmpdir(), 'bproxy-bench-peer-'));
  const transport = new StdioClientTransport({
    command: server.command,
    args: [...server.args],
    cwd,
    env: { ...(process.env as Record<string, string>), ...server.env },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', () => {});
  const client = new Client({ name: 'bproxy-bench', version: '1.0.0' });
  const result: ServerResult = {
    name: server.name,
    toolCount: 0,
    toolBytes: 0,
    fullToolCount: 0,
    fullToolBytes: 0,
    pages: [],
    failures: [],
    clickMs: [],
    clickCountOk: false,
    clickNote: '',
    memory: { serverMb: 0, browserMb: 0, processes: 0 },
    firstOpenMs: 0,
    dialogs: 0,
    tasks: [],
  };
  try {
    await client.connect(transport);
    const tools = await listTools(client);
    result.toolCount = tools.length;
    result.toolBytes = Buffer.byteLength(JSON.stringify(tools));
    log(`${server.name}: ${tools.length} tools, ${result.toolBytes} bytes`);
    const full = await fullToolList(client, server, cwd, tools);
    result.fullToolCount = full.length;
    result.fullToolBytes = Buffer.byteLength(JSON.stringify(full));
    if (full !== tools)
      log(`${server.name}, every group open: ${full.length} tools, ${result.fullToolBytes} bytes`);
    if (toolsOnly) return result;

    // The first call starts the browser (and bproxy's daemon): timed apart, not in the page figures.
    const opened = await run(client, server.open(`${origin}/counter.html`));
    if (opened.isError) throw new Error(`cannot open the first page: ${opened.text.slice(0, 200)}`);
    result.firstOpenMs = opened.ms;

    for (const [i, page] of pages.entries()) {
      try {
        // A navigation that ended on an open dialog did load the page: answer it and go on.
        const nav = await step(client, server, () => server.navigate(`${origin}/${page}`), false);
        if (nav.isError) throw new Error(nav.text.split('\n')[0]);
        const snap = await step(client, server, () => server.snapshot(), true);
        result.dialogs += nav.dialogs + snap.dialogs;
        if (snap.isError) throw new Error(snap.text.split('\n')[0]);
        result.pages.push({
          page,
          navigateMs: nav.ms,
          snapshotMs: snap.ms,
          snapshotBytes: Buffer.byteLength(snap.text),
          handles: server.handles(snap.text),
        });
      } catch (error) {
        result.failures.push({
          page,
          reason: String(error instanceof Error ? error.message : error).slice(0, 160),
        });
      }
      if ((i + 1) % 10 === 0 || i === pages.length - 1)
        log(`${server.name}: ${i + 1}/${pages.length} pages (${result.failures.length} failed)`);
    }

    await step(client, server, () => server.navigate(`${origin}/counter.html`), false);
    const snap = await step(client, server, () => server.snapshot(), true);
    const ref = server.refOn(snap.text, /button "Increment"/);
    if (ref === undefined) {
      result.clickNote = 'no handle for the Increment button in the snapshot';
    } else {
      for (let i = 0; i < clicks; i++) {
        const click = await run(client, server.click(ref));
        if (click.isError) {
          result.clickNote = `click failed: ${click.text.split('\n')[0]}`;
          break;
        }
        result.clickMs.push(click.ms);
      }
      const count = await run(client, server.count());
      result.clickCountOk = new RegExp(`(^|\\D)${clicks}(\\D|$)`).test(count.text);
      if (!result.clickCountOk && result.clickNote === '')
        result.clickNote = `count read back: ${count.text.slice(0, 80)}`;
    }
    log(`${server.name}: ${result.clickMs.length} clicks, count ${result.clickCountOk ? 'right' : 'WRONG'}`);
    if (withTasks) result.tasks = await replayTasks(client, server, origin);

    const daemons =
      server.name === 'bproxy'
        ? [Number(readFileSync(join(server.env?.BPROXY_HOME ?? '', 'bproxy.pid'), 'utf8').trim())]
        : newProcesses(baseline, /agent-browser-linux-x64/);
    const roots = [transport.pid ?? 0, ...daemons].filter((p) => p > 0);
    result.memory = memoryOf(roots);
  } catch (error) {
    result.clickNote ||= `aborted: ${String(error instanceof Error ? error.message : error).slice(0, 160)}`;
    log(`${server.name}: ${result.clickNote}`);
  } finally {
    await client.close().catch(() => {});
    await cleanup(server, baseline);
    rmSync(cwd, { recursive: true, force: true });
  }
  return result;
}

/** Stops what a server left behind: bproxy's daemon, agent-browser's detached daemon. */
async function cleanup(server: PeerServer, baseline: ReadonlySet<number>): Promise<void> {
  if (server.name === 'bproxy') {
    execFileSync(process.execPath, [join(ROOT, 'packages', 'cli', 'bin', 'bproxy.mjs'), 'service', 'stop'], {
      env: { ...process.env, ...server.env },
      stdio: 'ignore',
    });
    return;
  }
  for (const pid of newProcesses(baseline, /agent-browser-linux-x64/)) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

/** The pages in words for the report; a folder named at run time is not named (it is not in the repository). */
function describeCorpus(corpus: PageCorpus, used: number): string {
  const of = used === corpus.pages.length ? `the ${used}` : `${used} of the ${corpus.pages.length}`;
  return corpus.own
    ? `${of} pages of the project's own corpus (tests/fixtures/corpus, written for bproxy by scripts/make-corpus.mjs)`
    : `${of} pages of a folder given with ${corpus.from} (not in the repository)`;
}

async function main(): Promise<void> {
  const corpus = pageCorpusOrExit();
  const sampleArg = arg('--sample');
  const clicks = Number(arg('--clicks') ?? 30);
  const only = arg('--only');
  const pages = samplePages(corpus.pages, sampleArg === undefined ? undefined : Number(sampleArg));
  const site = await servePages([corpus.dir, FIXTURES], { [REPLAY]: DEFAULT_CORPUS });
  const bproxyHome = mkdtempSync(join(tmpdir(), 'bproxy-bench-mcp-'));
  const servers = peerServers(ROOT, chromium(), { bproxyHome }).filter(
    (s) => only === undefined || s.name === only,
  );
  log(
    `bench:peers — ${pages.length} pages, ${clicks} clicks, ${servers.length} servers, Chromium ${chromium()}`,
  );
  const results: ServerResult[] = [];
  const started = Date.now();
  const loadAtStart = loadavg()[0] ?? 0;
  try {
    for (const server of servers) results.push(await benchServer(server, site.origin, pages, clicks));
  } finally {
    await site.close();
    rmSync(bproxyHome, { recursive: true, force: true });
  }
  const write = !process.argv.includes('--no-write');
  const summary = writeReport(ROOT, results, {
    pages: pages.length,
    corpus: describeCorpus(corpus, pages.length),
    clicks,
    chromium: chromium(),
    chromiumVersion: chromiumVersion(),
    minutes: (Date.now() - started) / 60_000,
    load: [loadAtStart, loadavg()[0] ?? 0],
    write,
  });
  // Generated files pass `npm run format:check` like the rest of the repository.
  if (write) {
    for (const file of [join(ROOT, 'docs', 'benchmarks.md'), join(ROOT, 'README.md')]) {
      const options = (await prettier.resolveConfig(file)) ?? {};
      writeFileSync(file, await prettier.format(readFileSync(file, 'utf8'), { ...options, filepath: file }));
    }
  }
  process.stdout.write(`${summary}\n`);
}

function chromiumVersion(): string {
  try {
    return execFileSync(chromium(), ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

await main();
