/**
 * The site policy in a CDP browser: with a policy that refuses any origin, every document request of
 * the browser is paused (Fetch at the browser target) before it is sent, and one that would take a
 * driven tab's main frame — or the first page of a tab a driven page opened — to a refused origin is
 * failed there (the server never hears of it; a server redirect's first hop was sent, its target is
 * not). A popup stopped so is closed. Frames inside a page are not judged. The daemon is told each stop.
 */
import { guardRefuses, policyRefusesAny, type SitePolicy } from '@bproxy/protocol';
import type { CdpConnection } from '../cdp/connection';
import type { CdpEvents } from '../cdp/protocol-types';
import type { PageTab } from './page-tab';

export interface GuardHooks {
  /** The driven tab whose main frame is `frameId`. */
  tabOfFrame(frameId: string): PageTab | undefined;
  blocked(tab: PageTab, url: string, popup: boolean): void;
}

export class CdpNavGuard {
  /** Not told yet (undefined): nothing is guarded until the daemon sends the policy. */
  private policy: SitePolicy | null | undefined;
  private enabled = false;
  private applying: Promise<void> = Promise.resolve();
  /** Tabs a driven page opened whose first page is not decided yet: target id → opener. */
  private readonly firstLoads = new Map<string, PageTab>();

  constructor(
    private readonly connection: CdpConnection,
    private readonly hooks: GuardHooks,
  ) {
    connection.on('Fetch.requestPaused', (event, sessionId) => {
      if (sessionId === undefined) this.paused(event);
    });
  }

  /** The daemon's policy: interception is on while it refuses anything. */
  set(policy: SitePolicy | null): Promise<void> {
    this.policy = policy;
    const want = policyRefusesAny(policy);
    this.applying = this.applying.then(async () => {
      if (want === this.enabled) return;
      this.enabled = want;
      await (
        want
          ? this.connection.send('Fetch.enable', {
              patterns: [{ resourceType: 'Document', requestStage: 'Request' }],
            })
          : this.connection.send('Fetch.disable', {})
      ).catch(() => undefined);
    });
    return this.applying;
  }

  /** A driven tab's page opened `targetId`: its first page is judged as the opener's navigation. */
  opened(targetId: string, opener: PageTab): void {
    this.firstLoads.set(targetId, opener);
  }

  forget(targetId: string): void {
    this.firstLoads.delete(targetId);
  }

  private paused(event: CdpEvents['Fetch.requestPaused']): void {
    const { requestId, frameId, request } = event;
    const url = request.url;
    const opener = this.firstLoads.get(frameId);
    if (opener !== undefined && /^https?:/i.test(url)) this.firstLoads.delete(frameId);
    const tab = opener ?? this.hooks.tabOfFrame(frameId);
    const stop =
      event.resourceType === 'Document' &&
      tab !== undefined &&
      this.policy !== undefined &&
      guardRefuses(this.policy, url);
    const c = this.connection;
    if (!stop || tab === undefined) {
      void c.send('Fetch.continueRequest', { requestId }).catch(() => undefined);
      return;
    }
    void c.send('Fetch.failRequest', { requestId, errorReason: 'BlockedByClient' }).catch(() => undefined);
    if (opener !== undefined) void c.send('Target.closeTarget', { targetId: frameId }).catch(() => undefined);
    else {
      tab.stoppedUrl = url;
      tab.stops++;
      tab.changed();
    }
    this.hooks.blocked(tab, url, opener !== undefined);
  }
}
