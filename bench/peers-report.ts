/**
 * Turning the peers benchmark's measurements into docs/benchmarks.md (tables, targets met or missed),
 * docs/benchmarks.svg (bar charts) and the README headline between its bench:peers markers.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Memory } from './peers-system';
import { BPROXY_TARGET_MODE, type TaskResult } from './peers-tasks';

export interface PageResult {
  page: string;
  navigateMs: number;
  snapshotMs: number;
  snapshotBytes: number;
  handles: number;
}

export interface ServerResult {
  name: string;
  toolCount: number;
  /** The tool list a client gets by default. */
  toolBytes: number;
  /** The tool list with every group a server can open at run time (bproxy's `capabilities`); the default list for the others. */
  fullToolCount: number;
  fullToolBytes: number;
  pages: PageResult[];
  failures: { page: string; reason: string }[];
  clickMs: number[];
  clickCountOk: boolean;
  clickNote: string;
  memory: Memory;
  firstOpenMs: number;
  /** JavaScript dialogs the benchmark answered (pages that alert() while loading). */
  dialogs: number;
  /** The task replay, one result per read mode and task (servers with task modes only). */
  tasks: TaskResult[];
}

export interface RunInfo {
  pages: number;
  /** Which pages, in words for the report: the project's corpus or a folder named at run time. */
  corpus: string;
  clicks: number;
  chromium: string;
  chromiumVersion: string;
  minutes: number;
  /** The one-minute load average at the start and at the end of the run. */
  load: [number, number];
  write: boolean;
}

function quantile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return (sorted[lo] ?? 0) + ((sorted[hi] ?? 0) - (sorted[lo] ?? 0)) * (pos - lo);
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const ms = (v: number) => (Number.isNaN(v) ? '–' : `${Math.round(v)} ms`);
const s = (v: number) => `${(v / 1000).toFixed(1)} s`;
const kb = (v: number) =>
  Number.isNaN(v) ? '–' : v >= 10_240 ? `${Math.round(v / 1024)} KB` : `${(v / 1024).toFixed(1)} KB`;
const mb = (v: number) => `${Math.round(v)} MB`;

interface Stats {
  navMedian: number;
  navP90: number;
  navTotal: number;
  snapMedian: number;
  snapP90: number;
  snapTotal: number;
  bytesMedian: number;
  bytesP90: number;
  bytesTotal: number;
  clickP50: number;
  clickP90: number;
}

function stats(r: ServerResult): Stats {
  const nav = r.pages.map((p) => p.navigateMs);
  const snap = r.pages.map((p) => p.snapshotMs);
  const bytes = r.pages.map((p) => p.snapshotBytes);
  return {
    navMedian: quantile(nav, 0.5),
    navP90: quantile(nav, 0.9),
    navTotal: sum(nav),
    snapMedian: quantile(snap, 0.5),
    snapP90: quantile(snap, 0.9),
    snapTotal: sum(snap),
    bytesMedian: quantile(bytes, 0.5),
    bytesP90: quantile(bytes, 0.9),
    bytesTotal: sum(bytes),
    clickP50: quantile(r.clickMs, 0.5),
    clickP90: quantile(r.clickMs, 0.9),
  };
}

interface Target {
  what: string;
  met: boolean;
  detail: string;
}

function targets(results: ServerResult[], all: Map<string, Stats>): Target[] {
  const ours = results.find((r) => r.name === 'bproxy');
  const peers = results.filter((r) => r.name !== 'bproxy');
  const mine = ours ? all.get(ours.name) : undefined;
  if (!ours || !mine || peers.length === 0) return [];
  const best = (f: (r: ServerResult, st: Stats) => number) =>
    peers
      .map((r) => ({ name: r.name, value: f(r, all.get(r.name) as Stats) }))
      .filter((x) => !Number.isNaN(x.value) && x.value > 0)
      .sort((a, b) => a.value - b.value)[0];
  const out: Target[] = [];
  const click = best((_, st) => st.clickP50);
  if (click)
    out.push({
      what: 'click p50 ≤ half of the fastest peer',
      met: mine.clickP50 <= click.value / 2 && ours.clickCountOk,
      detail: `${ms(mine.clickP50)} vs ${click.name} ${ms(click.value)} (half: ${ms(click.value / 2)})`,
    });
  const bytes = best((_, st) => st.bytesMedian);
  if (bytes)
    out.push({
      what: 'median snapshot bytes ≤ the smallest peer',
      met: mine.bytesMedian <= bytes.value,
      detail: `${kb(mine.bytesMedian)} vs ${bytes.name} ${kb(bytes.value)}`,
    });
  const replay = replayTarget(results);
  if (replay) out.push(replay);
  const tools = best((r) => r.toolBytes);
  if (tools)
    out.push({
      what: 'tool-list bytes ≤ the smallest peer',
      met: ours.toolBytes <= tools.value,
      detail: `${kb(ours.toolBytes)} vs ${tools.name} ${kb(tools.value)}`,
    });
  return out;
}

/** The modes of the task replay, in run order, with their results. */
function replayModes(
  results: ServerResult[],
): { key: string; server: string; mode: string; tasks: TaskResult[] }[] {
  const modes = new Map<string, { key: string; server: string; mode: string; tasks: TaskResult[] }>();
  for (const r of results)
    for (const t of r.tasks) {
      const key = `${t.server} · ${t.mode}`;
      const m = modes.get(key) ?? { key, server: t.server, mode: t.mode, tasks: [] };
      m.tasks.push(t);
      modes.set(key, m);
    }
  return [...modes.values()];
}

const taskBytes = (tasks: TaskResult[]) => sum(tasks.map((t) => t.bytes));

/**
 * bproxy with --diff against agent-browser's best mode (fewest bytes over the tasks): at most half
 * the bytes on every task, with every handle it acted on read before, every result seen and every
 * task done. Missed is said with the ratio.
 */
function replayTarget(results: ServerResult[]): Target | undefined {
  const modes = replayModes(results);
  const ours = modes.find((m) => m.server === 'bproxy' && m.mode === BPROXY_TARGET_MODE);
  const theirs = modes
    .filter((m) => m.server === 'agent-browser')
    .sort((a, b) => taskBytes(a.tasks) - taskBytes(b.tasks))[0];
  if (!ours || !theirs) return undefined;
  const perTask = ours.tasks.map((t) => {
    const peer = theirs.tasks.find((p) => p.task === t.task);
    return { task: t.task, ours: t.bytes, theirs: peer?.bytes ?? NaN };
  });
  const clean = ours.tasks.every((t) => t.addressable && t.shown && t.done);
  const worst = Math.max(...perTask.map((p) => p.ours / p.theirs));
  // Where bproxy's bytes go in the task furthest from the target: its largest steps.
  const worstTask = perTask.find((p) => p.ours / p.theirs === worst)?.task;
  const largest = (ours.tasks.find((t) => t.task === worstTask)?.steps ?? [])
    .filter((st) => st.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 2)
    .map((st) => `${st.label} ${st.bytes.toLocaleString('en-US')} B`);
  return {
    what: `task replay: bproxy ${BPROXY_TARGET_MODE} reads ≤ half the bytes per task of agent-browser's best mode, every handle it used read first`,
    met: clean && worst <= 0.5,
    detail: `${kb(taskBytes(ours.tasks))} for the ${ours.tasks.length} tasks vs agent-browser ${theirs.mode} ${kb(taskBytes(theirs.tasks))}; per task ${perTask
      .map((p) => `${Math.round((100 * p.ours) / p.theirs)}%`)
      .join(', ')}${clean ? '' : '; not every task was done with its handles read and its results seen'}${
      worst > 0.5 && worstTask !== undefined
        ? `; missed by ${Math.round(100 * worst - 50)} points on "${worstTask}", whose largest steps are ${largest.join(' and ')}`
        : ''
    }`,
  };
}

function replaySection(results: ServerResult[]): string[] {
  const modes = replayModes(results);
  if (modes.length === 0) return [];
  const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  const tasks = modes[0]?.tasks.map((t) => t.task) ?? [];
  const mark = (ok: boolean) => (ok ? 'yes' : '**no**');
  const lines: string[] = ['## Task replay: the bytes an agent reads', ''];
  lines.push(
    "Scripted tasks on the corpus's two shop pages (their small scripts: `scripts/corpus/behaviour.mjs`), each step as an agent takes it — navigate, read, act, read again, act — " +
      'with the handle of each element taken from what the agent has read so far (its last whole read with every change since applied). ' +
      'Bytes are the UTF-8 bytes of every reply text the agent reads in the task: navigations, actions and reads. ' +
      'bproxy reads whole snapshots (`maxChars: 1000000`, as the peers read whole pages), or with `--diff` reads the page once after a navigation (`snapshot` with `diff: true`) and then only the changed lines an action answers with `diff: true`; both also with its default read, capped at 12 000 characters. ' +
      'Either way a bproxy read of the listing stops at 200 handles (the most one read mints) and ends with how to continue (`offset=`). ' +
      '"Every part" reads on with `offset` until the page is whole, so that every actionable element was in what the agent read, as in agent-browser\'s reads; "first part" is what an agent gets without reading on (the tasks\' handles are in that part). ' +
      'A bproxy diff names the handles of each run of lines that went away (`- 9 lines gone: ln4 el7`) instead of listing them: a filter that hides products names the handles of the hidden cards. ' +
      "agent-browser reads its snapshot (its MCP default is interactive elements only), or with `delta: true` the full state once, then deltas (JSON: ref changes and a line splice) — each also with `interactive: false`, which keeps the page's text. " +
      'Fills that no read follows are read in no mode. "Handles read first": every handle a step used was in what the agent had read in that task. ' +
      '"Results seen": what each step should show (the basket count, the thank-you line, the filtered count) was in that step’s replies. ' +
      '"Page done": the page was read back afterwards (uncounted) and holds the task’s result.',
    '',
  );
  lines.push(
    row(['server · read mode', ...tasks, 'all tasks', 'handles read first', 'results seen', 'page done']),
  );
  lines.push(row(Array(tasks.length + 5).fill('---')));
  for (const m of modes)
    lines.push(
      row([
        `**${m.key}**`,
        ...tasks.map((name) => {
          const t = m.tasks.find((x) => x.task === name);
          return t === undefined ? '–' : t.bytes.toLocaleString('en-US');
        }),
        taskBytes(m.tasks).toLocaleString('en-US'),
        mark(m.tasks.every((t) => t.addressable)),
        mark(m.tasks.every((t) => t.shown)),
        mark(m.tasks.every((t) => t.done)),
      ]),
    );
  lines.push('');
  lines.push('Bytes per step:', '');
  lines.push(row(['task › step', ...modes.map((m) => m.key)]));
  lines.push(row(Array(modes.length + 1).fill('---')));
  for (const name of tasks) {
    const steps = modes[0]?.tasks.find((t) => t.task === name)?.steps ?? [];
    for (const [i, step] of steps.entries())
      lines.push(
        row([
          `${name.split(':')[0]} › ${step.label}`,
          ...modes.map((m) => {
            const st = m.tasks.find((t) => t.task === name)?.steps[i];
            if (st === undefined) return '–';
            const flags = [
              st.handleRead === false ? 'handle not read' : '',
              st.shown === false ? 'result not seen' : '',
              st.error === undefined ? '' : `failed: ${esc(st.error.slice(0, 60))}`,
            ].filter(Boolean);
            return `${st.bytes.toLocaleString('en-US')}${flags.length > 0 ? ` (${flags.join('; ')})` : ''}`;
          }),
        ]),
      );
  }
  lines.push('');
  const notes = modes.flatMap((m) =>
    m.tasks.filter((t) => t.note !== '').map((t) => `- ${m.key}, ${t.task}: ${esc(t.note)}`),
  );
  if (notes.length > 0) lines.push('Tasks not done:', '', ...notes, '');
  return lines;
}

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Four horizontal bar panels, bproxy's bar in a distinct colour. */
function chart(results: ServerResult[], all: Map<string, Stats>): string {
  const panels: { title: string; value: (r: ServerResult) => number; label: (v: number) => string }[] = [
    { title: 'Tool list (bytes, smaller is better)', value: (r) => r.toolBytes, label: kb },
    { title: 'Median snapshot (bytes)', value: (r) => all.get(r.name)?.bytesMedian ?? NaN, label: kb },
    { title: `Click round-trip p50`, value: (r) => all.get(r.name)?.clickP50 ?? NaN, label: ms },
    { title: 'Memory: server + browser', value: (r) => r.memory.serverMb + r.memory.browserMb, label: mb },
  ];
  const width = 760;
  const labelW = 170;
  const barMax = width - labelW - 90;
  const rowH = 20;
  const panelH = 28 + results.length * rowH + 14;
  const parts: string[] = [];
  panels.forEach((panel, p) => {
    const top = p * panelH;
    const values = results.map(panel.value);
    const max = Math.max(...values.filter((v) => !Number.isNaN(v)), 1);
    parts.push(`<text x="0" y="${top + 18}" font-weight="bold">${esc(panel.title)}</text>`);
    results.forEach((r, i) => {
      const v = values[i] ?? NaN;
      const y = top + 28 + i * rowH;
      const w = Number.isNaN(v) ? 0 : Math.max(1, (v / max) * barMax);
      const fill = r.name === 'bproxy' ? '#2563eb' : '#9ca3af';
      parts.push(`<text x="${labelW - 8}" y="${y + 13}" text-anchor="end">${esc(r.name)}</text>`);
      parts.push(
        `<rect x="${labelW}" y="${y + 2}" width="${w.toFixed(1)}" height="${rowH - 6}" fill="${fill}"/>`,
      );
      parts.push(
        `<text x="${labelW + w + 6}" y="${y + 13}">${esc(Number.isNaN(v) ? 'n/a' : panel.label(v))}</text>`,
      );
    });
  });
  const height = panels.length * panelH;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">
<rect width="100%" height="100%" fill="#fff"/>
${parts.join('\n')}
</svg>
`;
}

function markdown(results: ServerResult[], all: Map<string, Stats>, info: RunInfo, goals: Target[]): string {
  const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  const lines: string[] = [];
  lines.push('# Benchmarks: bproxy MCP against its peers', '');
  lines.push(
    `Generated by \`npm run bench:peers\` on ${new Date().toISOString().slice(0, 10)} — one run, on this project's 2-core machine, ` +
      `${info.pages} pages, ${info.clicks} clicks, ${info.chromiumVersion} (\`${info.chromium}\`) for every server, headless, ` +
      `no sandbox; ${info.minutes.toFixed(1)} minutes in all, load average ${info.load[0].toFixed(1)} at the start and ${info.load[1].toFixed(1)} at the end. Each MCP server runs alone, driven by the same MCP client ` +
      `(the SDK's \`Client\` over \`StdioClientTransport\`). Pages: ${info.corpus}, served on 127.0.0.1 with ` +
      "`Content-Security-Policy: default-src 'self' 'unsafe-inline' data:`.",
    '',
  );
  lines.push('![bproxy against its peers](benchmarks.svg)', '');
  lines.push('## Targets', '');
  for (const goal of goals)
    lines.push(`- ${goal.met ? '✅ met' : '❌ missed'} — ${goal.what}: ${goal.detail}`);
  lines.push('');
  lines.push('## Tool list, clicks, memory', '');
  lines.push(
    row([
      'server',
      'tools',
      'tool-list bytes',
      'all groups: tools / bytes',
      'click p50',
      'click p90',
      `count after ${info.clicks} clicks`,
      'first open (browser start)',
      'memory: server',
      'memory: browser',
    ]),
  );
  lines.push(row(Array(10).fill('---')));
  for (const r of results) {
    const st = all.get(r.name) as Stats;
    lines.push(
      row([
        `**${r.name}**`,
        r.toolCount,
        r.toolBytes.toLocaleString('en-US'),
        `${r.fullToolCount} / ${r.fullToolBytes.toLocaleString('en-US')}`,
        ms(st.clickP50),
        ms(st.clickP90),
        r.clickCountOk ? 'right' : `wrong${r.clickNote ? ` (${esc(r.clickNote)})` : ''}`,
        ms(r.firstOpenMs),
        mb(r.memory.serverMb),
        mb(r.memory.browserMb),
      ]),
    );
  }
  lines.push('');
  lines.push('## Pages: navigate and snapshot', '');
  lines.push(
    row([
      'server',
      'navigate median',
      'p90',
      'total',
      'snapshot bytes median',
      'p90',
      'total',
      'snapshot time median',
      'p90',
      'total',
      'failed pages',
      'dialogs answered',
    ]),
  );
  lines.push(row(Array(12).fill('---')));
  for (const r of results) {
    const st = all.get(r.name) as Stats;
    lines.push(
      row([
        `**${r.name}**`,
        ms(st.navMedian),
        ms(st.navP90),
        s(st.navTotal),
        kb(st.bytesMedian),
        kb(st.bytesP90),
        kb(st.bytesTotal),
        ms(st.snapMedian),
        ms(st.snapP90),
        s(st.snapTotal),
        `${r.failures.length} / ${info.pages}`,
        r.dialogs,
      ]),
    );
  }
  lines.push('');
  const failures = results.filter((r) => r.failures.length > 0);
  if (failures.length > 0) {
    lines.push('### Failed pages', '');
    for (const r of failures)
      for (const f of r.failures.slice(0, 15)) lines.push(`- ${r.name}: \`${f.page}\` — ${esc(f.reason)}`);
    lines.push('');
  }
  lines.push(...replaySection(results));
  lines.push('## Addressable elements', '');
  lines.push(
    'Handles in the snapshot per page (median / total): what an agent can act on without another read. ' +
      "bproxy hands out `el`/`ln` handles only for interactive elements and links; @playwright/mcp and chrome-devtools-mcp give every node a ref; agent-browser's default snapshot keeps interactive elements and headings.",
    '',
  );
  lines.push(row(['server', 'median', 'total']));
  lines.push(row(['---', '---', '---']));
  for (const r of results) {
    const h = r.pages.map((p) => p.handles);
    lines.push(row([`**${r.name}**`, Math.round(quantile(h, 0.5)), sum(h)]));
  }
  lines.push('');
  lines.push('## How it is measured', '');
  lines.push(
    "- **Tool list**: bytes of `JSON.stringify(tools)` from `tools/list` (every page of it), as a client gets it by default. **All groups**: bproxy's list after its `capabilities` tool opened every group; @playwright/mcp started with `--caps=vision,pdf,devtools,config,network,storage,testing`; chrome-devtools-mcp with `--categoryExtensions --categoryPwa --experimentalVision --memoryDebugging` (its WebMCP categories need page support and are left out); agent-browser with `--tools all`.",
    "- **Navigate**: the server's own navigation tool (bproxy `navigate`, `browser_navigate`, `navigate_page`, `agent_browser_open`), round trip as the client sees it, including whatever the reply carries (@playwright/mcp replies with page state).",
    "- **Snapshot**: the server's read tool with its defaults, except bproxy asked for the whole outline (`maxChars: 1000000`) so that all four return the full page; by default bproxy caps a snapshot at 12 000 characters and ends it with how to continue. Bytes are the UTF-8 bytes of the text content.",
    `- **Click**: the Increment button of tests/fixtures/pages/counter.html, by the handle its snapshot gave, ${info.clicks} times in a row; then the counter is read back (bproxy \`text\`, the peers' evaluate/get-text tool) and must equal ${info.clicks}. bproxy runs with \`--pacing fast\`: the peers have no pacing, and the default \`human\` pacing spaces clicks 0.5–2 s on purpose.`,
    "- **Memory**: RSS after the run, of the server's process tree plus the daemon it detached (bproxy's daemon; agent-browser's), split into Chromium processes and the rest.",
    '- The first navigation starts the browser (and bproxy\'s daemon) and is reported apart as "first open".',
    "- **Dialogs**: a page that calls `alert()` while loading (none of the project corpus does). Like an agent, the benchmark answers them with the server's own dialog tool when a reply says one is open (the time counts in the step); agent-browser answers dialogs by itself.",
    '',
  );
  return `${lines.join('\n')}`;
}

/** One line per task mode: the bytes an agent read for all the tasks. */
function replayHeadline(results: ServerResult[]): string[] {
  const modes = replayModes(results);
  if (modes.length === 0) return [];
  return [
    `- task replay (${modes[0]?.tasks.length ?? 0} tasks on the shop pages, bytes an agent reads): ${modes
      .map((m) => `${m.key} ${kb(taskBytes(m.tasks))}`)
      .join('; ')};`,
  ];
}

function headline(results: ServerResult[], all: Map<string, Stats>, goals: Target[], info: RunInfo): string {
  const ours = results.find((r) => r.name === 'bproxy');
  const st = ours ? all.get(ours.name) : undefined;
  if (!ours || !st) return '';
  const peers = results.filter((r) => r.name !== 'bproxy');
  const peerText = peers
    .map((r) => {
      const p = all.get(r.name) as Stats;
      return `${r.name} ${ms(p.clickP50)} / ${kb(p.bytesMedian)} / ${kb(r.toolBytes)} (${kb(r.fullToolBytes)} all)`;
    })
    .join('; ');
  return [
    `bproxy's MCP server against @playwright/mcp, chrome-devtools-mcp and agent-browser, same machine, same Chromium, same pages — ${info.corpus} ([details](docs/benchmarks.md)):`,
    '',
    `- click round-trip p50 **${ms(st.clickP50)}**, median snapshot **${kb(st.bytesMedian)}**, tool list **${kb(ours.toolBytes)}** by default, ${kb(ours.fullToolBytes)} with every group open (peers, same order: click / snapshot / tool list by default and with every tool: ${peerText});`,
    ...replayHeadline(results),
    ...goals.map((g) => `- ${g.met ? 'met' : 'missed'}: ${g.what} — ${g.detail}.`),
  ].join('\n');
}

/** Writes the report files (unless info.write is false) and returns a short summary for the terminal. */
export function writeReport(root: string, results: ServerResult[], info: RunInfo): string {
  const all = new Map(results.map((r) => [r.name, stats(r)]));
  const goals = targets(results, all);
  const md = markdown(results, all, info, goals);
  if (info.write) {
    writeFileSync(join(root, 'docs', 'benchmarks.md'), `${md}\n`);
    writeFileSync(join(root, 'docs', 'benchmarks.svg'), chart(results, all));
    const readmePath = join(root, 'README.md');
    const readme = readFileSync(readmePath, 'utf8');
    const start = '<!-- bench:peers:start -->';
    const end = '<!-- bench:peers:end -->';
    const a = readme.indexOf(start);
    const b = readme.indexOf(end);
    if (a >= 0 && b > a)
      writeFileSync(
        readmePath,
        `${readme.slice(0, a + start.length)}\n\n${headline(results, all, goals, info)}\n\n${readme.slice(b)}`,
      );
  }
  return md;
}
