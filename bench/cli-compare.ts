/**
 * Whole-process CLI figures, side by side and interleaved (so that the machine's load falls on every
 * tool alike): start-up (`--version`), and open / snapshot / click as an agent runs them, one process
 * per action. A tool is a command line per action; bproxy CLIs share one fast-paced session and tab.
 */
import { mustRun, pct, summary, type ProcessRun } from './cli-common';

export interface CliTool {
  readonly name: string;
  readonly command: string;
  readonly env: NodeJS.ProcessEnv;
  /** Tools with the same key click on the same page (bproxy CLIs share a session). */
  readonly counterKey: string;
  open(url: string): string[];
  snapshot(): string[];
  click(): string[];
  text(): string[];
  /** Reads the counter page's count from a finished run of `countArgs`. */
  countArgs(): string[];
  count(run: ProcessRun): number;
}

export function bproxyTool(
  name: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  session: string,
): CliTool {
  const s = ['-s', session];
  return {
    name,
    command,
    env,
    counterKey: session,
    open: (url) => [...args, ...s, 'navigate', url],
    snapshot: () => [...args, ...s, 'snapshot'],
    click: () => [...args, ...s, 'click', '--selector', '#inc'],
    text: () => [...args, ...s, 'text'],
    countArgs: () => [...args, ...s, 'text'],
    count: (run) =>
      Number(/Count: (\d+)/.exec(String((JSON.parse(run.stdout) as { text: string }).text))?.[1]),
  };
}

export function agentBrowserTool(command: string, env: NodeJS.ProcessEnv): CliTool {
  return {
    name: 'agent-browser',
    command,
    env,
    counterKey: 'agent-browser',
    open: (url) => ['open', url],
    snapshot: () => ['snapshot'],
    click: () => ['click', '#inc'],
    text: () => ['get', 'text', 'body'],
    countArgs: () => ['get', 'text', '#count'],
    count: (run) => Number(run.stdout.trim()),
  };
}

export interface CliFigures {
  open: number[];
  snapshot: number[];
  snapshotBytes: number[];
  click: number[];
}

/**
 * For each tool: open + snapshot on each of `pageUrls`, then `clicks` clicks on the counter page
 * (checked at the end). Tools take turns at every step.
 */
export async function compareClis(
  tools: readonly CliTool[],
  pageUrls: readonly string[],
  counterUrl: string,
  clicks: number,
): Promise<Map<string, CliFigures>> {
  const figures = new Map<string, CliFigures>(
    tools.map((t) => [t.name, { open: [], snapshot: [], snapshotBytes: [], click: [] }]),
  );
  const get = (t: CliTool): CliFigures => figures.get(t.name) as CliFigures;
  // Warm-up (agent-browser starts its browser on first use; the OS caches every binary).
  for (const t of tools) {
    await mustRun(t.command, t.open(counterUrl), t.env);
    await mustRun(t.command, t.click(), t.env);
  }
  for (const url of pageUrls) {
    for (const t of tools) {
      get(t).open.push((await mustRun(t.command, t.open(url), t.env)).ms);
      const snap = await mustRun(t.command, t.snapshot(), t.env);
      get(t).snapshot.push(snap.ms);
      get(t).snapshotBytes.push(Buffer.byteLength(snap.stdout));
    }
  }
  for (const t of tools) await mustRun(t.command, t.open(counterUrl), t.env);
  for (let i = 0; i < clicks; i++) {
    for (const t of tools) get(t).click.push((await mustRun(t.command, t.click(), t.env)).ms);
  }
  // Tools sharing a tab see the sum of their clicks.
  for (const t of tools) {
    const expected = tools.filter((other) => other.counterKey === t.counterKey).length * clicks;
    const count = t.count(await mustRun(t.command, t.countArgs(), t.env));
    if (count !== expected) throw new Error(`${t.name}: the counter shows ${count}, expected ${expected}`);
  }
  return figures;
}

/** One action `n` times per tool, tools taking turns, after one warm-up run each. */
export async function timeActions(
  tools: readonly CliTool[],
  args: (tool: CliTool) => string[],
  n: number,
): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>(tools.map((t) => [t.name, []]));
  for (const t of tools) await mustRun(t.command, args(t), t.env);
  for (let i = 0; i < n; i++) {
    for (const t of tools) out.get(t.name)?.push((await mustRun(t.command, args(t), t.env)).ms);
  }
  return out;
}

export function printActionTimes(byAction: Record<string, Map<string, number[]>>): void {
  for (const [action, byTool] of Object.entries(byAction)) {
    for (const [tool, runs] of byTool)
      console.log(`  ${action.padEnd(6)} ${tool.padEnd(20)} ${summary(runs)}`);
  }
}

/** `--version` of each command, interleaved. */
export async function compareStartup(
  commands: readonly { name: string; command: string; args: string[]; env: NodeJS.ProcessEnv }[],
  runs: number,
): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>(commands.map((c) => [c.name, []]));
  for (const c of commands) await mustRun(c.command, c.args, c.env);
  for (let i = 0; i < runs; i++) {
    for (const c of commands) out.get(c.name)?.push((await mustRun(c.command, c.args, c.env)).ms);
  }
  return out;
}

export function printCliFigures(figures: Map<string, CliFigures>, reference: string): void {
  const ref = figures.get(reference);
  const ratio = (mine: number[], theirs: number[] | undefined): string =>
    theirs === undefined ? '' : `  ×${(pct(mine, 50) / pct(theirs, 50)).toFixed(2)} vs ${reference}`;
  for (const [name, f] of figures) {
    console.log(`\n  ${name}`);
    console.log(`    open      ${summary(f.open)}${name === reference ? '' : ratio(f.open, ref?.open)}`);
    console.log(
      `    snapshot  ${summary(f.snapshot)}${name === reference ? '' : ratio(f.snapshot, ref?.snapshot)}`,
    );
    console.log(`    click     ${summary(f.click)}${name === reference ? '' : ratio(f.click, ref?.click)}`);
    console.log(`    snapshot output bytes p50 ${pct(f.snapshotBytes, 50)}  p90 ${pct(f.snapshotBytes, 90)}`);
  }
}
