/**
 * Tabs a driven tab's page opened (webNavigation.onCreatedNavigationTarget: a target=_blank link,
 * window.open, a middle click). Each is driven from then on and pushed to the daemon as tab_opened —
 * which puts it in the session of its opener — and kept a little while per opener, so that the action
 * that opened it can name it. The debugger's Page.windowOpen arrives as soon as the page asks for a
 * window, before the tab exists: an action that saw one waits, briefly, for its tab.
 */
import type { ChromeApi } from '../../chrome-api';
import type { DrivenTabs, PushTarget } from './driven-tabs';

export interface OpenedTab {
  tabId: number;
  url: string;
}

/** Where an opener stood before an action. */
export interface OpenedMark {
  seq: number;
  asked: number;
}

/** Only the latest few openings are kept: an action collects its own within moments. */
const KEPT = 50;

export class OpenedTabs {
  private seq = 0;
  private readonly recent: (OpenedTab & { seq: number; opener: number })[] = [];
  /** Windows each opener's page asked for (Page.windowOpen), whether or not the browser opened them. */
  private readonly asked = new Map<number, number>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly tabs: DrivenTabs) {}

  install(chrome: ChromeApi, target: PushTarget): void {
    chrome.webNavigation.onCreatedNavigationTarget.addListener((details) => {
      target.ensureConnected();
      void this.tabs.ready.then(() => {
        if (!this.tabs.has(details.sourceTabId) || this.tabs.has(details.tabId)) return;
        const url = details.url.slice(0, 8192);
        // Before the tab counts as driven: its early navigations (pushes.ts) then follow this push.
        target.push({ type: 'tab_opened', tabId: details.tabId, openerTabId: details.sourceTabId, url });
        this.tabs.add(details.tabId);
        this.recent.push({ seq: ++this.seq, opener: details.sourceTabId, tabId: details.tabId, url });
        if (this.recent.length > KEPT) this.recent.shift();
        this.changed();
      });
    });
    chrome.debugger.onEvent.addListener((source, method) => {
      if (method !== 'Page.windowOpen' || source.tabId === undefined) return;
      this.asked.set(source.tabId, (this.asked.get(source.tabId) ?? 0) + 1);
      this.changed();
    });
    chrome.tabs.onRemoved.addListener((tabId) => this.asked.delete(tabId));
  }

  mark(opener: number): OpenedMark {
    return { seq: this.seq, asked: this.asked.get(opener) ?? 0 };
  }

  /**
   * The tabs `opener`'s page opened since `mark`. When it asked for more windows than have appeared,
   * waits up to `timeoutMs` for them: a popup the browser blocked never comes.
   */
  async since(opener: number, mark: OpenedMark, timeoutMs: number): Promise<OpenedTab[]> {
    const found = (): OpenedTab[] =>
      this.recent
        .filter((t) => t.opener === opener && t.seq > mark.seq)
        .map(({ tabId, url }) => ({ tabId, url }));
    const complete = (): boolean => found().length >= (this.asked.get(opener) ?? 0) - mark.asked;
    if (!complete()) {
      await new Promise<void>((resolve) => {
        const check = (): void => {
          if (!complete()) return;
          done();
        };
        const timer = setTimeout(() => done(), timeoutMs);
        const done = (): void => {
          clearTimeout(timer);
          this.listeners.delete(check);
          resolve();
        };
        this.listeners.add(check);
      });
    }
    return found();
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
