/**
 * Finding browser processes by a path in their command line (the profile directory a test gave them),
 * so every browser test can prove it left nothing running.
 */
import { readdirSync, readFileSync } from 'node:fs';

export function processesMentioning(needle: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.includes(needle)) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls until `check` holds or the time is up; for conditions no event tells us about (a process exiting). */
export async function until(
  check: () => boolean,
  what: string,
  timeoutMs = 10_000,
  stepMs = 50,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
}
