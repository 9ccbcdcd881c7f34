/**
 * Runs a CLI entry point in this process and captures what it prints. The CLI writes every line
 * through console.log / console.error (output.ts), so those two are all there is to capture.
 */
import { vi } from 'vitest';

export interface CapturedRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function text(args: readonly unknown[]): string {
  // output.ts writes ('%s', line); anything else is joined as console would.
  const parts = args[0] === '%s' ? args.slice(1) : args;
  return `${parts.map(String).join(' ')}\n`;
}

/** Runs `run` with console.log and console.error captured (one run at a time: they are global). */
export async function capture(run: () => Promise<number>): Promise<CapturedRun> {
  let stdout = '';
  let stderr = '';
  const log = vi
    .spyOn(console, 'log')
    .mockImplementation((...args: unknown[]) => void (stdout += text(args)));
  const error = vi
    .spyOn(console, 'error')
    .mockImplementation((...args: unknown[]) => void (stderr += text(args)));
  try {
    const code = await run();
    return { code, stdout, stderr };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

/** The same run with the parts that change from one request to the next (id, deadline) blanked. */
export function comparable(run: CapturedRun): CapturedRun {
  const blank = (s: string) =>
    s.replace(/"id":"[a-z2-7]{12}"/g, '"id":"<id>"').replace(/"deadline":\d+/g, '"deadline":"<deadline>"');
  return { code: run.code, stdout: blank(run.stdout), stderr: blank(run.stderr) };
}
