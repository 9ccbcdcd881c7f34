/**
 * Reading the command line a tool started the bridge with, as if it were Chrome: which transport it
 * wants (pipe, port or both), the profile and headless mode it asked for, and the switches left for
 * the real browser after the argument policy. Chrome switches are `--name` or `--name=value`;
 * anything else is a page to open.
 */
import { verdictFor, switchName } from './arg-policy';

export interface ToolArgs {
  /** `--remote-debugging-pipe`: CDP on fd 3 (in) and fd 4 (out). */
  readonly pipe: boolean;
  /** `--remote-debugging-port=N` (0: any free port): serve a DevTools endpoint. */
  readonly port: number | undefined;
  readonly userDataDir: string | undefined;
  readonly headless: boolean;
  /** Switches and pages the policy lets through to a browser the bridge launches. */
  readonly forwarded: readonly string[];
  /** Switches the policy refused, for the log. */
  readonly dropped: readonly string[];
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
  const forwarded: string[] = [];
  const dropped: string[] = [];
  for (const arg of argv) {
    const verdict = verdictFor(arg);
    if (verdict === 'forward') forwarded.push(arg);
    else if (verdict === 'drop') dropped.push(arg);
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
  return { pipe, port, userDataDir, headless, forwarded, dropped };
}
