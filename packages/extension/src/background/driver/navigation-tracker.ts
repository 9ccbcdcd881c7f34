/**
 * Main-frame navigation events of every tab, numbered in arrival order, so an action can take a mark
 * before it acts and then ask what happened after the mark: did a navigation start, did it finish,
 * did it fail. Listens to chrome.webNavigation only; it does not push anything to the daemon.
 */
import type { ChromeApi, NavDetails, NavErrorDetails } from '../../chrome-api';

export type NavKind =
  | 'before'
  | 'committed'
  | 'dom'
  | 'completed'
  | 'error'
  | 'history'
  | 'fragment'
  /** The navigation became a download (the debugger's Page.downloadWillBegin): no page will load. */
  | 'download';

export interface NavEvent {
  seq: number;
  tabId: number;
  kind: NavKind;
  url: string;
  error?: string;
}

export type WaitUntil = 'load' | 'domcontentloaded' | 'none';

const KEEP = 500;
/** Events that end a wait for a page load, by waitUntil. Same-document moves end every wait. */
const TERMINAL: Record<Exclude<WaitUntil, 'none'>, ReadonlySet<NavKind>> = {
  load: new Set(['completed', 'error', 'history', 'fragment']),
  domcontentloaded: new Set(['dom', 'completed', 'error', 'history', 'fragment']),
};

interface Waiter {
  tabId: number;
  test: (event: NavEvent) => boolean;
  resolve: (event: NavEvent) => void;
}

export class NavigationTracker {
  private seq = 0;
  private readonly events: NavEvent[] = [];
  private readonly waiters = new Set<Waiter>();

  install(chrome: ChromeApi): void {
    const on = (kind: NavKind) => (details: NavDetails) => {
      if (details.frameId === 0) this.record(details.tabId, kind, details.url);
    };
    const nav = chrome.webNavigation;
    nav.onBeforeNavigate.addListener(on('before'));
    nav.onCommitted.addListener(on('committed'));
    nav.onDOMContentLoaded.addListener(on('dom'));
    nav.onCompleted.addListener(on('completed'));
    nav.onHistoryStateUpdated.addListener(on('history'));
    nav.onReferenceFragmentUpdated.addListener(on('fragment'));
    nav.onErrorOccurred.addListener((details: NavErrorDetails) => {
      if (details.frameId === 0) this.record(details.tabId, 'error', details.url, details.error);
    });
    // A navigation that turns into a download ends with ERR_ABORTED, which a load wait ignores; the
    // debugger on the tab says it was a download, so an action waiting for the page does not hang.
    chrome.debugger.onEvent.addListener((source, method, params) => {
      if (method !== 'Page.downloadWillBegin' || source.tabId === undefined) return;
      const url = (params as { url?: unknown } | undefined)?.url;
      this.record(source.tabId, 'download', typeof url === 'string' ? url : '');
    });
  }

  record(tabId: number, kind: NavKind, url: string, error?: string): void {
    const event: NavEvent = { seq: ++this.seq, tabId, kind, url };
    if (error !== undefined) event.error = error;
    this.events.push(event);
    if (this.events.length > KEEP) this.events.splice(0, this.events.length - KEEP);
    for (const waiter of [...this.waiters]) {
      if (waiter.tabId === tabId && waiter.test(event)) {
        this.waiters.delete(waiter);
        waiter.resolve(event);
      }
    }
  }

  /** A mark: events after it are "since". */
  mark(): number {
    return this.seq;
  }

  since(tabId: number, mark: number): NavEvent[] {
    return this.events.filter((e) => e.tabId === tabId && e.seq > mark);
  }

  /** Whether the main frame got a new document or a history entry (pushState) after the mark; a fragment change keeps the document. */
  navigatedSince(tabId: number, mark: number): boolean {
    return this.since(tabId, mark).some((e) => e.kind === 'committed' || e.kind === 'history');
  }

  /** Resolves with the first event after `mark` that passes `test`, or null after `timeoutMs`. */
  waitFor(
    tabId: number,
    mark: number,
    test: (event: NavEvent) => boolean,
    timeoutMs: number,
  ): Promise<NavEvent | null> {
    const seen = this.since(tabId, mark).find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        tabId,
        test,
        resolve: (event) => {
          clearTimeout(timer);
          resolve(event);
        },
      };
      const timer = setTimeout(
        () => {
          this.waiters.delete(waiter);
          resolve(null);
        },
        Math.max(0, timeoutMs),
      );
      this.waiters.add(waiter);
    });
  }

  /**
   * Waits until the navigation that started after `mark` reaches `waitUntil`. A load event needs a
   * navigation start after the mark (so a page that was still loading before cannot end the wait);
   * same-document moves end it at once. An ERR_ABORTED (an older navigation replaced by ours) does
   * not end the wait; any other error does. Events `ignore` passes are not counted at all (a new
   * tab's own about:blank, whose events can arrive after the mark).
   */
  waitForLoad(
    tabId: number,
    mark: number,
    waitUntil: Exclude<WaitUntil, 'none'>,
    timeoutMs: number,
    ignore: (event: NavEvent) => boolean = () => false,
  ): Promise<NavEvent | null> {
    const terminal = TERMINAL[waitUntil];
    let started = false;
    // Called once per event, in order: first over the recorded events, then live ones.
    const test = (e: NavEvent): boolean => {
      if (ignore(e)) return false;
      if (e.kind === 'before') {
        started = true;
        return false;
      }
      if (e.kind === 'history' || e.kind === 'fragment' || e.kind === 'download') return true;
      if (e.kind === 'error' && /ERR_ABORTED/.test(e.error ?? '')) return false;
      return started && terminal.has(e.kind);
    };
    return this.waitFor(tabId, mark, test, timeoutMs);
  }
}
