/**
 * The logs of the tabs a driver drives, one TabLog each, made when the tab is first driven and freed
 * when it leaves (closed, released): a tab the driver does not hold is never logged. Around each action
 * that acts on the page (a navigation, a click, a fill, …) the observer marks where the tab's log stood,
 * waits a moment for the requests the action started, and says in one line what it caused.
 */
import { actionDef, type ForwardedAction } from '@bproxy/protocol';
import { fail } from '../failure';
import { firstErrorSinceAction, inFlightSince, newsSince } from './reads';
import { TabLog, type Bounds } from './tab-log';

/** The CDP domains whose events the logs read; a driver enables them on each tab it drives. */
export const OBSERVED_DOMAINS = ['Runtime.enable', 'Log.enable', 'Network.enable'] as const;

/** How long an action's answer waits for the requests it started to end, for its news. */
export const NEWS_SETTLE_MS = 1000;

/** Actions that act on the page: they move the `sinceAction` mark and answer with news. */
export function actsOnPage(action: ForwardedAction): boolean {
  const def = actionDef(action);
  return def.routing === 'tab' && (def.destructive || def.pacing !== undefined) && action !== 'tab.close';
}

export class TabObserver {
  private readonly logs = new Map<number, TabLog>();

  constructor(
    private readonly bounds?: { console: Bounds; network: Bounds },
    private readonly now: () => number = Date.now,
  ) {}

  /** The tab's log, made on first use. */
  log(tabId: number): TabLog {
    let log = this.logs.get(tabId);
    if (log === undefined) {
      log = new TabLog(this.bounds?.console, this.bounds?.network, this.now);
      this.logs.set(tabId, log);
    }
    return log;
  }

  has(tabId: number): boolean {
    return this.logs.has(tabId);
  }

  /** Feeds an event of a tab the driver logs; other tabs' events are dropped. */
  feed(tabId: number, method: string, params: unknown): void {
    this.logs.get(tabId)?.feed(method, params);
  }

  /** The tab left: its log goes. */
  release(tabId: number): void {
    this.logs.delete(tabId);
  }

  get size(): number {
    return this.logs.size;
  }
}

/**
 * Runs an action on a tab whose log is `log` (null: the tab is not logged); when the action acts on
 * the page, moves the log's mark first and answers with its news (after waiting up to NEWS_SETTLE_MS,
 * within the deadline, for the requests it started).
 */
export async function aroundAction<T>(
  log: TabLog | null,
  action: ForwardedAction,
  deadline: number,
  run: () => Promise<T>,
  now: () => number = Date.now,
): Promise<{ data: T; news?: string }> {
  if (log === null || !actsOnPage(action)) return { data: await run() };
  const mark = log.seq;
  log.actionMark = mark;
  const data = await run();
  const left = deadline - now() - 50;
  if (left > 0 && inFlightSince(log, mark))
    await waitFor(
      log,
      () => (inFlightSince(log, mark) ? undefined : true),
      Math.min(NEWS_SETTLE_MS, left),
    ).catch(() => undefined);
  const news = newsSince(log, mark);
  return news === undefined ? { data } : { data, news };
}

/** wait --console-error: resolves with the first error line since the tab's latest action. */
export async function waitConsoleError(log: TabLog, timeoutMs: number): Promise<string> {
  try {
    return await waitFor(log, () => firstErrorSinceAction(log), timeoutMs);
  } catch {
    return fail('WAIT_TIMEOUT', `no console error within ${timeoutMs} ms`);
  }
}

/** The first value of `check`, tried on every change of the log; rejects after `timeoutMs`. */
function waitFor<T>(log: TabLog, check: () => T | undefined, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const first = check();
    if (first !== undefined) {
      resolve(first);
      return;
    }
    const off = log.onChange(() => {
      const value = check();
      if (value === undefined) return;
      clearTimeout(timer);
      off();
      resolve(value);
    });
    const timer = setTimeout(() => {
      off();
      reject(new Error('timeout'));
    }, timeoutMs);
  });
}
