/**
 * The watchdog for a headless browser the bridge may launch: a detached Node process, in its own
 * session so that a tool killing the bridge's process group (as Puppeteer and Playwright do with their
 * browser) leaves it running, holding the read end of a pipe whose only writer is the bridge. It is
 * started just before the first browser process is, in pipe and ws mode alike, and told over that
 * pipe what the bridge does: about to launch, launched pid N, attached to someone else's browser. When the
 * bridge dies — even by SIGKILL, even in the middle of a launch — the kernel closes the pipe, the
 * watchdog reads end-of-file and stops the headless browser the bridge launched (after checking it
 * still is that browser), and nothing else. It relays no CDP; it has no pid to poll, so a reused
 * bridge pid cannot fool it.
 */
import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import type { BridgeConfig } from '../config';
import type { LaunchObserver } from '../downstream/attach-or-launch';

export interface WatchdogPlan {
  readonly bridgePid: number;
  readonly userDataDir: string;
  readonly executablePath: string;
  readonly config: Pick<
    BridgeConfig,
    'downstream' | 'executablePath' | 'home' | 'powershell' | 'wslHost' | 'logLevel'
  >;
}

/** What the bridge tells the watchdog, one JSON object a line; the last one says what to do. */
export type WatchdogNews = { launching: true } | { pid: number } | { attached: number };

export function parseWatchdogNews(line: string): WatchdogNews | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length !== 1) return undefined;
  if (record.launching === true) return { launching: true };
  const pid = record.pid ?? record.attached;
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return undefined;
  return 'pid' in record ? { pid } : { attached: pid };
}

/**
 * The launch observer that runs the watchdog: the watchdog process is started on the first launch,
 * before the browser process (its pipe exists before the browser does), and reused by the launches of
 * later recoveries. A bridge that only ever attaches starts none.
 */
export function watchdogObserver(script: string, plan: WatchdogPlan): LaunchObserver {
  let tell: ((news: WatchdogNews) => void) | undefined;
  return {
    launching: () => {
      tell ??= startWatchdog(script, plan);
      tell({ launching: true });
    },
    spawned: (pid) => tell?.({ pid }),
    attached: (pid) => tell?.({ attached: pid }),
  };
}

function startWatchdog(script: string, plan: WatchdogPlan): (news: WatchdogNews) => void {
  // The plan travels in argv, which every local user can read: only what the watchdog needs, by name,
  // so that nothing secret (the endpoint token, a remote URL) can ride along.
  const { downstream, executablePath, home, powershell, wslHost, logLevel } = plan.config;
  const visible: WatchdogPlan = {
    bridgePid: plan.bridgePid,
    userDataDir: plan.userDataDir,
    executablePath: plan.executablePath,
    config: { downstream, executablePath, home, powershell, wslHost, logLevel },
  };
  const child = spawn(process.execPath, [script, JSON.stringify(visible)], {
    detached: true,
    // No console window of its own on Windows.
    windowsHide: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  // The bridge must be free to exit; the pipe stays open until it does.
  child.unref();
  const stdin = child.stdin as Socket | null;
  stdin?.unref();
  stdin?.on('error', () => undefined);
  child.on('error', () => undefined);
  // A pipe write lands in the kernel at once: the watchdog reads it even if the bridge dies next.
  return (news) => void stdin?.write(`${JSON.stringify(news)}\n`);
}
