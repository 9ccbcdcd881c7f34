/**
 * The site policy in the user's Chrome: while the daemon's policy refuses any origin and a tab is
 * driven, declarativeNetRequest session rules stop every top-level navigation to a refused origin in
 * every tab but the user's own (the tabs that existed or opened neither by bproxy nor from a driven
 * page) — before the request is sent, without the debugger (which leaves idle tabs), redirects
 * included (a server redirect's first hop is sent; its target is not). A tab Chrome creates is guarded
 * from its first request: a popup of a driven page is never a moment unguarded. A stopped popup is
 * closed; the daemon is told each stop. Frames inside a page are not judged.
 */
import { guardRefuses, policyOrigin, policyRefusesAny, type SitePolicy } from '@bproxy/protocol';
import type { ChromeApi, DnrRule } from '../../chrome-api';
import type { WorkerLog } from '../log';
import type { DrivenTabs, PushTarget } from './driven-tabs';

const BLOCKED = 'net::ERR_BLOCKED_BY_CLIENT';

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** A policy key (`https://bank.example`, `https://*.example.com:8443`, `http://[::1]:80`) as a URL regex. */
export function keyPattern(key: string): string {
  const scheme = key.startsWith('https://') ? 'https' : 'http';
  let rest = key.slice(scheme.length + 3);
  const wild = rest.startsWith('*.');
  if (wild) rest = rest.slice(2);
  const port = /:\d+$/.exec(rest)?.[0] ?? '';
  const host = rest.slice(0, rest.length - port.length);
  return `^${scheme}://([^/?#@]*@)?${wild ? '[^/?#@:]+\\.' : ''}${escapeRe(host)}${escapeRe(port)}[/?#]`;
}

/**
 * The policy as session rules, by decideUrl's order: an exact origin beats any `*.` pattern, a longer
 * pattern a shorter one, and any of them the default; allow rules let through what a wider block stops.
 */
export function guardRules(policy: SitePolicy | null, excludedTabIds: number[]): DnrRule[] {
  const scope = excludedTabIds.length > 0 ? { excludedTabIds } : {};
  const rule = (id: number, priority: number, allow: boolean, regexFilter: string): DnrRule => ({
    id,
    priority,
    action: { type: allow ? 'allow' : 'block' },
    condition: { regexFilter, resourceTypes: ['main_frame'], ...scope },
  });
  if (policy === null) return [rule(1, 1, false, '^https?://')];
  const rules = [rule(1, 1, policy.default === 'allow', '^https?://')];
  let id = 2;
  for (const [key, entry] of Object.entries(policy.origins)) {
    if (entry.rule === undefined) continue;
    const wild = key.includes('://*.');
    const priority = wild ? 10 + key.split('.').length : 10_000;
    rules.push(rule(id++, priority, entry.rule === 'allow', keyPattern(key)));
  }
  return rules;
}

export class NavGuard {
  /** Not told yet (undefined): nothing is guarded until the daemon sends the policy. */
  private policy: SitePolicy | null | undefined;
  /** The user's own tabs: never guarded. */
  private readonly userTabs = new Set<number>();
  /** Tabs a driven page opened whose first page is not decided yet → the opener. */
  private readonly firstLoads = new Map<number, number>();
  private applying: Promise<void> = Promise.resolve();
  private readonly retried = new Set<number>();

  constructor(
    private readonly chrome: ChromeApi,
    private readonly tabs: DrivenTabs,
    private readonly log: WorkerLog,
  ) {}

  install(target: PushTarget): void {
    const { chrome } = this;
    if (chrome.declarativeNetRequest === undefined) return;
    void this.tabs.ready
      .then(() => chrome.tabs.query({}))
      .then((all) => {
        for (const tab of all) if (tab.id !== undefined && !this.tabs.has(tab.id)) this.userTabs.add(tab.id);
        return this.sync();
      })
      .catch(() => undefined);
    chrome.tabs.onCreated?.addListener((tab) => {
      if (tab.id === undefined) return;
      const opener = tab.openerTabId;
      if (opener !== undefined && (this.tabs.has(opener) || this.firstLoads.has(opener)))
        this.firstLoads.set(tab.id, opener);
      // A tab created on a web page with no opener named may be a popup of a driven tab behind the
      // user's (webNavigation names its source next): it stays guarded until then. A person's such tab
      // (a bookmark opened in a new tab) is let through once stopped (`stopped`).
      else if (/^https?:/i.test(tab.pendingUrl ?? tab.url ?? '')) return;
      // tab.open's own tab turns driven before it loads anything (tab-actions.ts waits for `sync`).
      else this.userTabs.add(tab.id);
      void this.sync();
    });
    // A tab a driven page opened while it was behind the user's carries no openerTabId when created:
    // webNavigation names its source, before the tab's first request is decided.
    chrome.webNavigation.onCreatedNavigationTarget.addListener((d) => {
      const opener = d.sourceTabId;
      if (!this.tabs.has(opener) && !this.firstLoads.has(opener)) return;
      this.userTabs.delete(d.tabId);
      this.firstLoads.set(d.tabId, opener);
      void this.sync();
    });
    chrome.tabs.onRemoved.addListener((tabId) => {
      this.userTabs.delete(tabId);
      this.firstLoads.delete(tabId);
      this.retried.delete(tabId);
    });
    this.tabs.onAdded(() => void this.sync());
    chrome.webNavigation.onCompleted.addListener((d) => {
      if (d.frameId === 0) this.firstLoads.delete(d.tabId);
    });
    chrome.webNavigation.onErrorOccurred.addListener((d) => {
      if (d.frameId !== 0 || d.error !== BLOCKED || this.policy === undefined) return;
      if (!guardRefuses(this.policy, d.url)) return;
      this.stopped(target, d.tabId, d.url.slice(0, 8192));
    });
  }

  /** The daemon's policy. */
  set(policy: SitePolicy | null): Promise<void> {
    this.policy = policy;
    return this.sync();
  }

  /** The rules as the driven tabs, the user's and the policy stand now (done in order). */
  sync(): Promise<void> {
    this.applying = this.applying
      .then(() => this.apply())
      .catch((error: unknown) => {
        this.log.warn('nav_guard_rules_failed', {
          error: error instanceof Error ? error.message : String(error),
        });
      });
    return this.applying;
  }

  private async apply(): Promise<void> {
    const dnr = this.chrome.declarativeNetRequest;
    if (dnr === undefined) return;
    const on =
      this.policy !== undefined &&
      policyRefusesAny(this.policy) &&
      (this.tabs.size > 0 || this.firstLoads.size > 0);
    const excluded = [...this.userTabs].filter((id) => !this.tabs.has(id));
    const rules = on && this.policy !== undefined ? guardRules(this.policy, excluded) : [];
    const old = await dnr.getSessionRules();
    await dnr.updateSessionRules({ removeRuleIds: old.map((r) => r.id), addRules: rules });
  }

  private stopped(target: PushTarget, tabId: number, url: string): void {
    const opener = this.firstLoads.get(tabId);
    this.firstLoads.delete(tabId);
    if (opener !== undefined) {
      this.log.info('nav_guard_popup_closed', { tabId, opener, origin: policyOrigin(url) });
      target.push({ type: 'navigation_blocked', tabId: opener, url, popup: true });
      void this.chrome.tabs.remove(tabId).catch(() => undefined);
      return;
    }
    if (this.tabs.has(tabId)) {
      this.log.info('nav_guard_stopped', { tabId, origin: policyOrigin(url) });
      target.push({ type: 'navigation_blocked', tabId, url, popup: false });
      return;
    }
    // The user's own tab, stopped before the guard knew it was theirs: once let through, now it is.
    if (this.retried.has(tabId)) return;
    this.retried.add(tabId);
    this.userTabs.add(tabId);
    void this.sync().then(() => this.chrome.tabs.update(tabId, { url }).catch(() => undefined));
  }
}
