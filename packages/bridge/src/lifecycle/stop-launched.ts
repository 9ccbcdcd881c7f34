/**
 * Stopping a browser the bridge launched headless — on a normal exit, or from the watchdog after the
 * bridge was killed. Before anything is stopped, the process behind the pid must still be that
 * browser: a headless command line, the same profile, the expected binary (or a Chromium-family
 * binary, which is what a launcher script such as Debian's /usr/bin/chromium turns into). A pid reused by another
 * program, or a browser someone else started, is left alone. Browsers the bridge attached to never
 * come here.
 */
import type { BrowserHost, BrowserProcess } from '../downstream/browser-host';
import { isHeadlessCommandLine, switchValue } from '../downstream/browser-host';
import { sameWindowsPath } from '../downstream/windows-command-line';
import { realpathSync } from 'node:fs';
import { isChromiumFamily } from '../downstream/local-host';

export interface LaunchedBrowserIdentity {
  readonly pid: number;
  readonly userDataDir: string;
  readonly executablePath: string;
}

function sameExecutable(host: BrowserHost, actual: string | undefined, expected: string): boolean {
  if (actual === undefined) return false;
  if (host.kind === 'wsl') return sameWindowsPath(actual, expected);
  try {
    if (realpathSync(actual) === realpathSync(expected)) return true;
  } catch {
    if (actual === expected) return true;
  }
  // A launcher script (Debian's /usr/bin/chromium) execs the browser binary under the same pid.
  return isChromiumFamily(actual);
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

/**
 * Waits, at most `timeoutMs`, for a browser to exit by itself (after Browser.close it first writes
 * its profile). True when it is gone. The process is not the bridge's to wait on (it may be on
 * Windows), so its presence is polled.
 */
export async function waitForOwnExit(host: BrowserHost, pid: number, timeoutMs: number): Promise<boolean> {
  const end = performance.now() + timeoutMs;
  const step = host.kind === 'local' ? 25 : 250;
  for (;;) {
    const proc = await host.find(pid);
    // A zombie (exited, not yet collected) has an empty command line.
    if (proc === undefined || proc.args.length === 0) return true;
    if (performance.now() >= end) return false;
    await new Promise((done) => setTimeout(done, step));
  }
}
