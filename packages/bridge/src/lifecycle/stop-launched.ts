/**
 * Stopping a browser the bridge launched headless — on a normal exit, or from the watchdog after the
 * bridge was killed. Before anything is stopped, the process behind the pid must still be that
 * browser: a headless command line, the same profile, the expected binary. A pid reused by another
 * program, or a browser someone else started, is left alone. Browsers the bridge attached to never
 * come here.
 */
import type { BrowserHost, BrowserProcess } from '../downstream/browser-host';
import { isHeadlessCommandLine, switchValue } from '../downstream/browser-host';
import { sameWindowsPath } from '../downstream/windows-command-line';
import { realpathSync } from 'node:fs';

export interface LaunchedBrowserIdentity {
  readonly pid: number;
  readonly userDataDir: string;
  readonly executablePath: string;
}

function sameExecutable(host: BrowserHost, actual: string | undefined, expected: string): boolean {
  if (actual === undefined) return false;
  if (host.kind === 'wsl') return sameWindowsPath(actual, expected);
  try {
    return realpathSync(actual) === realpathSync(expected);
  } catch {
    return actual === expected;
  }
}

/** Why `proc` must not be stopped, or undefined when it is the browser we launched. */
export function refusalToStop(
  host: BrowserHost,
  proc: BrowserProcess,
  identity: LaunchedBrowserIdentity,
): string | undefined {
  if (!isHeadlessCommandLine(proc.args)) return 'its command line has no --headless';
  const profile = switchValue(proc.args, '--user-data-dir');
  if (profile === undefined || !host.sameProfile(profile, identity.userDataDir))
    return 'it runs another profile';
  if (!sameExecutable(host, proc.executablePath, identity.executablePath))
    return 'it runs another executable';
  return undefined;
}

export type StopOutcome = 'stopped' | 'already-gone' | { refused: string };

export async function stopLaunchedHeadless(
  host: BrowserHost,
  identity: LaunchedBrowserIdentity,
): Promise<StopOutcome> {
  const proc = await host.find(identity.pid);
  if (proc === undefined || proc.args.length === 0) return 'already-gone';
  const refusal = refusalToStop(host, proc, identity);
  if (refusal !== undefined) return { refused: refusal };
  await host.stop(identity.pid);
  return 'stopped';
}
