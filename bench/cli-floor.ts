/**
 * The compiled CLI against its one-call floor: bench/one-call-floor.ts, compiled with the CLI's own
 * Bun flags, finds the daemon as the client does and makes the same single POST — what the CLI spends
 * beyond it is its own start-up. Timed like hyperfine, as whole processes: a warm-up run of each
 * command, then rounds in which every command runs once (so that the machine's load falls on all of
 * them alike), and the median of each over the rounds.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { bunCompile } from '../scripts/compile-cli.mjs';
import { ROOT, load, ms, mustRun, pct } from './cli-common';

export interface TimedCommand {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
}

/** The floor program, compiled now from bench/one-call-floor.ts; its path. */
export function compileFloor(): string {
  const outdir = join(ROOT, '.tmp', 'bench');
  mkdirSync(outdir, { recursive: true });
  return bunCompile(join(ROOT, 'bench', 'one-call-floor.ts'), join(outdir, 'one-call-floor'));
}

/** Every command once to warm up, then `rounds` rounds of every command; the times by name. */
export async function timeRounds(
  commands: readonly TimedCommand[],
  rounds: number,
): Promise<Map<string, number[]>> {
  const times = new Map<string, number[]>(commands.map((c) => [c.name, []]));
  for (const c of commands) await mustRun(c.command, c.args, c.env);
  for (let i = 0; i < rounds; i++) {
    for (const c of commands) times.get(c.name)?.push((await mustRun(c.command, c.args, c.env)).ms);
  }
  return times;
}

export interface FloorPair {
  /** The command measured against the floor, and the floor run that makes its one POST. */
  readonly of: string;
  readonly floor: string;
}

const median = (runs: readonly number[]): number => pct(runs, 50);

/** The table: p50, p90 and min per command, and each paired command's median over its floor's. */
export function printFloorFigures(
  times: ReadonlyMap<string, readonly number[]>,
  pairs: readonly FloorPair[],
  rounds: number,
): void {
  console.log(
    `\nThe compiled CLI against its one-call floor (whole processes, ${rounds} rounds; load ${load()})`,
  );
  console.log(`  ${''.padEnd(26)} ${'p50'.padStart(8)} ${'p90'.padStart(8)} ${'min'.padStart(8)}`);
  for (const [name, runs] of times) {
    const pair = pairs.find((p) => p.of === name);
    const floor = pair === undefined ? undefined : times.get(pair.floor);
    const ratio = floor === undefined ? '' : `  ×${(median(runs) / median(floor)).toFixed(2)} the floor`;
    const cells = [median(runs), pct(runs, 90), Math.min(...runs)].map((v) => `${ms(v)} ms`.padStart(8));
    console.log(`  ${name.padEnd(26)} ${cells.join(' ')}${ratio}`);
  }
}

/** Whether the click meets its two targets: within 1.3× its floor, and no slower than agent-browser's. */
export function printClickTargets(
  times: ReadonlyMap<string, readonly number[]>,
  click: FloorPair,
  agentBrowserClick: string | undefined,
): void {
  const mine = median(times.get(click.of) ?? []);
  const floor = median(times.get(click.floor) ?? []);
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  console.log(
    `  target: click within 1.3× the floor — ${verdict(mine <= 1.3 * floor)} (×${(mine / floor).toFixed(2)})`,
  );
  if (agentBrowserClick === undefined) return;
  const theirs = median(times.get(agentBrowserClick) ?? []);
  console.log(
    `  target: click no slower than agent-browser's — ${verdict(mine <= theirs)} (${ms(mine)} ms against ${ms(theirs)} ms)`,
  );
}
