/**
 * The watchdog for pipe + headless + launched: a detached Node process, in its own session so that a
 * tool killing the bridge's process group (as Puppeteer and Playwright do with their browser) leaves
 * it running, holding the read end of a pipe whose only writer is the bridge. When the bridge dies —
 * even by SIGKILL — the kernel closes that pipe, the watchdog reads end-of-file and stops the headless
 * browser the bridge launched (after checking it still is that browser). It relays no CDP; it has no
 * pid to poll, so a reused bridge pid cannot fool it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import type { BridgeConfig } from '../config';
import type { LaunchedBrowserIdentity } from './stop-launched';

export interface WatchdogPlan extends LaunchedBrowserIdentity {
  readonly bridgePid: number;
  readonly config: Pick<
    BridgeConfig,
    'downstream' | 'executablePath' | 'home' | 'powershell' | 'wslHost' | 'logLevel'
  >;
}

export function startWatchdog(script: string, plan: WatchdogPlan): ChildProcess {
  // The plan travels in argv, which every local user can read: only what the watchdog needs, by name,
  // so that nothing secret (the endpoint token, a remote URL) can ride along.
  const { downstream, executablePath, home, powershell, wslHost, logLevel } = plan.config;
  const visible: WatchdogPlan = {
    bridgePid: plan.bridgePid,
    pid: plan.pid,
    userDataDir: plan.userDataDir,
    executablePath: plan.executablePath,
    config: { downstream, executablePath, home, powershell, wslHost, logLevel },
  };
  const child = spawn(process.execPath, [script, JSON.stringify(visible)], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  // The bridge must be free to exit; the pipe stays open until it does.
  child.unref();
  (child.stdin as Socket | null)?.unref();
  child.on('error', () => undefined);
  return child;
}
