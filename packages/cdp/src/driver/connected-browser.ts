/**
 * One connected browser and the page targets we drive in it, numbered with the driver's tab ids: the
 * tabs we opened, and the tabs their pages opened (a target=_blank link, window.open), which we attach
 * to as they appear. Reports the target lifecycle the daemon cares about (a tab opened by a driven one,
 * a tab closed, crashed or detached) and the end of the connection itself.
 */
import type { CdpConnection } from '../cdp/connection';
import type { TargetInfo } from '../cdp/protocol-types';
import { CdpSession } from '../cdp/session';
import type { BrowserHandle } from '../browser/open-browser';
import { PageTab, type TabHooks } from './page-tab';
import { BrowserDownloads, type DownloadSettings } from './downloads';
import { CdpNavGuard } from './nav-guard';
import type { DriverDownloadMessage } from '@bproxy/protocol';

export interface ConnectedBrowserHooks extends TabHooks {
  tabClosed(tab: PageTab, why: string): void;
  /** A driven tab's page opened `tab`, which is now set up and driven too. */
  tabOpened(tab: PageTab, opener: PageTab): void;
  allocateTabId(): number;
  /** The site policy stopped `tab`'s navigation to `url` (popup: the first page of a tab it opened, closed). */
  navigationBlocked(tab: PageTab, url: string, popup: boolean): void;
  /** A download in one of our tabs started or ended (only with `downloads` settings). */
  download?(report: Omit<DriverDownloadMessage, 'type'>): void;
}

/** How long attaching to and setting up a tab a page opened may take. */
const ADOPT_TIMEOUT_MS = 10_000;

export class ConnectedBrowser {
  private readonly tabs = new Map<number, PageTab>();
  private readonly byTarget = new Map<string, PageTab>();
  /** Rejects when the connection closes; actions race against it so none outlives its browser. */
  readonly disconnected: Promise<never>;
  /** The site policy's stop for navigations to refused origins. */
  readonly guard: CdpNavGuard;

  constructor(
    readonly handle: BrowserHandle,
    private readonly bundle: string,
    private readonly hooks: ConnectedBrowserHooks,
    private readonly downloads?: DownloadSettings,
  ) {
    const c = handle.connection;
    this.disconnected = new Promise<never>((_, reject) => {
      c.onClose((reason) => {
        for (const tab of [...this.tabs.values()]) this.forget(tab, `the browser went away (${reason})`);
        reject(new Error(reason));
      });
    });
    this.disconnected.catch(() => undefined);
    this.guard = new CdpNavGuard(c, {
      tabOfFrame: (frameId) => this.tabOfFrame(frameId),
      blocked: (tab, url, popup) => hooks.navigationBlocked(tab, url, popup),
    });
    c.on('Target.targetCreated', ({ targetInfo }) => this.onCreated(targetInfo));
    c.on('Target.targetDestroyed', ({ targetId }) => {
      this.guard.forget(targetId);
      this.forgetTarget(targetId, 'the tab was closed');
    });
    c.on('Target.targetCrashed', ({ targetId }) => {
      this.forgetTarget(targetId, 'the tab crashed');
      void c.send('Target.closeTarget', { targetId }).catch(() => undefined);
    });
    c.on('Target.detachedFromTarget', ({ sessionId }) => {
      const tab = [...this.tabs.values()].find((t) => t.session.sessionId === sessionId);
      if (tab !== undefined) this.forget(tab, 'the browser detached us from the tab');
    });
  }

  get connection(): CdpConnection {
    return this.handle.connection;
  }

  get closed(): boolean {
    return this.handle.connection.closed;
  }

  async init(timeoutMs: number): Promise<void> {
    // Discovery is what makes the browser report targetDestroyed for tabs closed behind our back.
    await this.connection.send('Target.setDiscoverTargets', { discover: true }, { timeoutMs });
    if (this.downloads !== undefined) {
      const report = this.hooks.download?.bind(this.hooks) ?? (() => undefined);
      await new BrowserDownloads(
        this.connection,
        this.downloads,
        (frameId) => this.tabOfFrame(frameId),
        report,
      ).start(timeoutMs);
    }
  }

  /** The tab whose main frame or one of whose child frames (cross-origin, out-of-process too) is `frameId`. */
  private tabOfFrame(frameId: string): PageTab | undefined {
    return (
      this.byTarget.get(frameId) ??
      [...this.tabs.values()].find((t) => t.mainFrameId === frameId || t.frames.has(frameId))
    );
  }

  tab(tabId: number): PageTab | undefined {
    return this.tabs.get(tabId);
  }

  ownTabs(): PageTab[] {
    return [...this.tabs.values()];
  }

  async openTab(tabId: number, options: { background: boolean; timeoutMs: number }): Promise<PageTab> {
    const c = this.connection;
    const { targetId } = await c.send(
      'Target.createTarget',
      { url: 'about:blank', ...(options.background ? { background: true } : {}) },
      { timeoutMs: options.timeoutMs },
    );
    try {
      const { sessionId } = await c.send(
        'Target.attachToTarget',
        { targetId, flatten: true },
        { timeoutMs: options.timeoutMs },
      );
      const tab = new PageTab(tabId, targetId, new CdpSession(c, sessionId), this.hooks);
      this.tabs.set(tabId, tab);
      this.byTarget.set(targetId, tab);
      await tab.setup(this.bundle, options.timeoutMs);
      return tab;
    } catch (error) {
      void c.send('Target.closeTarget', { targetId }).catch(() => undefined);
      const tab = this.byTarget.get(targetId);
      if (tab !== undefined) this.forget(tab, 'setup failed', false);
      throw error;
    }
  }

  async closeTab(tab: PageTab, timeoutMs: number): Promise<void> {
    const gone = tab.waitUntil(() => (tab.gone ? true : undefined), timeoutMs, 'closing the tab');
    gone.promise.catch(() => undefined);
    try {
      await this.connection.send('Target.closeTarget', { targetId: tab.targetId }, { timeoutMs });
      // closeTarget answers before the tab is gone; targetDestroyed says it is.
      await gone.promise.catch(() => undefined);
    } finally {
      gone.cancel();
      this.forget(tab, 'closed by tab.close');
    }
  }

  /** A page opened by one of ours becomes ours too; anything else in the browser is none of our business. */
  private onCreated(info: TargetInfo): void {
    if (info.type !== 'page' || info.openerId === undefined) return;
    const opener = this.byTarget.get(info.openerId);
    if (opener === undefined || this.byTarget.has(info.targetId)) return;
    // Before its first request, which the guard pauses until it is judged.
    this.guard.opened(info.targetId, opener);
    const adopted = this.adopt(info, opener).catch(() => null);
    opener.opened.push(adopted);
    void adopted.then(() => opener.changed());
  }

  private async adopt(info: TargetInfo, opener: PageTab): Promise<{ tabId: number; url: string } | null> {
    const c = this.connection;
    const { sessionId } = await c.send(
      'Target.attachToTarget',
      { targetId: info.targetId, flatten: true },
      { timeoutMs: ADOPT_TIMEOUT_MS },
    );
    const tab = new PageTab(
      this.hooks.allocateTabId(),
      info.targetId,
      new CdpSession(c, sessionId),
      this.hooks,
    );
    // A tab opened without an opener (target=_blank) is reported blank until its first commit.
    tab.url = info.url === '' ? opener.lastWindowOpenUrl : info.url;
    this.tabs.set(tab.tabId, tab);
    this.byTarget.set(info.targetId, tab);
    try {
      await tab.setup(this.bundle, ADOPT_TIMEOUT_MS);
    } catch (error) {
      this.forget(tab, 'setup failed', false);
      throw error;
    }
    // Closed already (a popup that was done at once): the daemon need not hear of it at all.
    if (tab.gone) return null;
    this.hooks.tabOpened(tab, opener);
    return { tabId: tab.tabId, url: tab.url };
  }

  private forgetTarget(targetId: string, why: string): void {
    const tab = this.byTarget.get(targetId);
    if (tab !== undefined) this.forget(tab, why);
  }

  private forget(tab: PageTab, why: string, report = true): void {
    if (this.tabs.get(tab.tabId) !== tab) return;
    this.tabs.delete(tab.tabId);
    this.byTarget.delete(tab.targetId);
    tab.markGone(why);
    if (report) this.hooks.tabClosed(tab, why);
  }
}
