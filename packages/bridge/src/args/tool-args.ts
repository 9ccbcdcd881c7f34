/**
 * Reading the command line a tool started the bridge with, as if it were Chrome: which transport it
 * wants (pipe, port or both), the profile and headless mode it asked for, and the arguments left for
 * the real browser (the argument policy, applied once the plan knows whose profile it is, decides). Chrome switches are `--name` or `--name=value`;
 * anything else is a page to open.
 */
import { isConsumed, switchName } from './arg-policy';

export interface ToolArgs {
  /** `--remote-debugging-pipe`: CDP on fd 3 (in) and fd 4 (out). */
  readonly pipe: boolean;
  /** `--remote-debugging-port=N` (0: any free port): serve a DevTools endpoint. */
  readonly port: number | undefined;
  readonly userDataDir: string | undefined;
  readonly headless: boolean;
  /** Every switch and page the bridge does not consume itself, in order, before the policy. */
  readonly rest: readonly string[];
}

export class ToolArgsError extends Error {
  override readonly name = 'ToolArgsError';
}

function valueOf(arg: string): string | undefined {
  const eq = arg.indexOf('=');
  return eq === -1 ? undefined : arg.slice(eq + 1);
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined || !/^[0-9]{1,5}$/.test(raw) || Number(raw) > 65535) {
    throw new ToolArgsError(
      `--remote-debugging-port needs a port from 0 to 65535 (0 = any free port), got ${JSON.stringify(raw ?? '')}`,
    );
  }
  return Number(raw);
}

/** `--headless`, `--headless=new`, `--headless=old`, `--headless=shell` ask for headless; `=false` does not. */
function isHeadless(arg: string): boolean {
  const value = valueOf(arg);
  return value === undefined || value !== 'false';
}

export function parseToolArgs(argv: readonly string[]): ToolArgs {
  let pipe = false;
  let port: number | undefined;
  let userDataDir: string | undefined;
  let headless = false;
  const rest: string[] = [];
  for (const arg of argv) {
    if (!isConsumed(arg)) rest.push(arg);
    else {
      const name = switchName(arg);
      if (name === '--remote-debugging-pipe') pipe = true;
      else if (name === '--remote-debugging-port') port = parsePort(valueOf(arg));
      else if (name === '--user-data-dir') {
        const value = valueOf(arg);
        if (value === undefined || value === '') throw new ToolArgsError('--user-data-dir needs a directory');
        userDataDir = value;
      } else if (name === '--headless') headless = isHeadless(arg);
    }
  }
  return { pipe, port, userDataDir, headless, rest };
}
