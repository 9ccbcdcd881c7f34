/**
 * The CDP driver as the daemon sees it: a client on a MessageTransport that says hello, executes
 * forwarded requests (deduped by id, refused once their deadline passed), and pushes navigation and
 * tab_closed events. It owns the browser's lifetime: started on creation, restarted (launch) or
 * reconnected (attach, remote) on the next tab.open after it went away, stopped with the driver.
 */
import { createHash, randomBytes } from 'node:crypto';
import { answerOnce } from '@bproxy/driver';
import {
  BPROXY_VERSION,
  DaemonMessageSchema,
  makeError,
  PROTOCOL_VERSION,
  type BproxyForwardedRequest,
  type DaemonMessage,
  type DriverMessage,
  type MessageTransport,
  type SitePolicy,
} from '@bproxy/protocol';
import { openBrowser } from '../browser/open-browser';
import { defaultName, type CdpDriverOptions } from '../options';
import { ConnectedBrowser } from './connected-browser';
import { DriverLog, type LogEntry } from './driver-log';
import { execute } from './executor';
import { LedgerTable } from './ledger';

export type DaemonLink = MessageTransport<DaemonMessage, DriverMessage>;

export class CdpDriver {
  readonly log: DriverLog;
  readonly name: string;
  readonly instanceId: string;
  private browser: ConnectedBrowser | undefined;
  private connecting: Promise<ConnectedBrowser> | undefined;
  private readonly executed = new LedgerTable();
  private readonly lostTabs = new Set<number>();
  private nextTabId = 1;
  /** The site policy the daemon last sent (undefined: none yet), given to every browser connected. */
  private policy: SitePolicy | null | undefined;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly options: CdpDriverOptions,
    private readonly transport: DaemonLink,
    private readonly bundle: string,
    logSink?: (entry: LogEntry) => void,
  ) {
    this.log = new DriverLog(500, logSink);
    this.name = options.name ?? defaultName(options);
    this.instanceId = options.instanceId ?? instanceIdFor(options);
    // Attached before any await so that no daemon message can arrive unheard.
    transport.onmessage = (message) => this.onMessage(message);
    transport.onclose = (reason) => {
      this.log.write('info', 'daemon transport closed', { reason });
      void this.close();
    };
  }

  /** Starts the browser and introduces the driver to the daemon. */
  async start(): Promise<void> {
    const browser = await this.ensureBrowser();
    this.send({
      type: 'hello',
      protocolVersion: PROTOCOL_VERSION,
      client: {
        instanceId: this.instanceId,
        kind: 'cdp',
        name: this.name,
        version: BPROXY_VERSION,
        userAgent: browser.handle.userAgent.slice(0, 512),
      },
    });
  }

  /** The connected browser's process id when we launched it (tests and diagnostics). */
  get browserPid(): number | undefined {
    return this.browser?.handle.pid;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      const browser = this.browser;
      this.browser = undefined;
      const pending = this.connecting;
      if (browser !== undefined) await this.stopBrowser(browser);
      if (pending !== undefined) await pending.then((b) => this.stopBrowser(b)).catch(() => undefined);
      this.transport.close('the CDP driver stopped');
      this.log.write('info', 'driver stopped');
    })();
    return this.closing;
  }

  private async stopBrowser(browser: ConnectedBrowser): Promise<void> {
    if (!browser.handle.owned && this.options.closeTabsOnStop === true) {
      await Promise.all(browser.ownTabs().map((tab) => browser.closeTab(tab, 2_000).catch(() => undefined)));
    }
    await browser.handle.close();
  }

  private onMessage(message: DaemonMessage): void {
    const parsed = DaemonMessageSchema.safeParse(message);
    if (!parsed.success) {
      this.log.write('warn', 'ignored a daemon message outside the protocol');
      const id = (message as { request?: { id?: unknown } } | null)?.request?.id;
      if (typeof id === 'string')
        this.send({
          type: 'response',
          id,
          ok: false,
          error: makeError('BAD_REQUEST', 'the request message is outside the protocol'),
        });
      return;
    }
    const m = parsed.data;
    if (m.type === 'welcome') this.log.write('info', 'welcomed by the daemon', { clientName: m.clientName });
    else if (m.type === 'error')
      this.log.write('warn', 'the daemon reported an error', {
        code: m.error.code,
        message: m.error.message,
      });
    else if (m.type === 'request') this.onRequest(m.request);
    else if (m.type === 'nav_guard') {
      this.policy = m.policy;
      void this.browser?.guard.set(m.policy);
    }
  }

  private onRequest(request: BproxyForwardedRequest): void {
    if (this.closing !== undefined) {
      this.send({
        type: 'response',
        id: request.id,
        ok: false,
        error: makeError('BROWSER_DISCONNECTED', 'the CDP driver is stopping'),
      });
      return;
    }
    // A replay of a known id is answered from the ledger whatever its deadline; a new request past
    // its deadline is refused without running.
    void answerOnce(
      this.executed,
      request,
      () =>
        execute(request, {
          log: this.log,
          ensureBrowser: () => this.ensureBrowser(),
          currentBrowser: () => (this.browser?.closed === false ? this.browser : undefined),
          wasLost: (tabId) => this.lostTabs.has(tabId),
          allocateTabId: () => this.nextTabId++,
          allowFileUrls: this.options.mode === 'launch' && this.options.allowFileUrls === true,
        }),
      {
        onLate: () =>
          this.log.write('warn', 'refused a request past its deadline', {
            id: request.id,
            action: request.action,
          }),
      },
    ).then((outcome) => this.send(outcome.response));
  }

  private ensureBrowser(): Promise<ConnectedBrowser> {
    if (this.closing !== undefined) return Promise.reject(new Error('the CDP driver is stopping'));
    if (this.browser !== undefined && !this.browser.closed) return Promise.resolve(this.browser);
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async connect(): Promise<ConnectedBrowser> {
    const handle = await openBrowser(this.options);
    const downloads = this.options.mode === 'launch' ? this.options.downloads : undefined;
    const browser = new ConnectedBrowser(
      handle,
      this.bundle,
      {
        allocateTabId: () => this.nextTabId++,
        navigation: (tab, url, cause) => this.send({ type: 'navigation', tabId: tab.tabId, url, cause }),
        tabOpened: (tab, opener) => {
          this.log.write('info', 'tab opened by a page', { tabId: tab.tabId, openerTabId: opener.tabId });
          if (this.closing === undefined)
            this.send({ type: 'tab_opened', tabId: tab.tabId, openerTabId: opener.tabId, url: tab.url });
        },
        tabClosed: (tab, why) => {
          const browserGone = handle.connection.closed;
          if (browserGone) this.lostTabs.add(tab.tabId);
          this.log.write('info', 'tab closed', { tabId: tab.tabId, why });
          if (this.closing === undefined)
            this.send({
              type: 'tab_closed',
              tabId: tab.tabId,
              reason: browserGone ? 'browser_gone' : 'closed',
            });
        },
        navigationBlocked: (tab, url, popup) => {
          this.log.write('info', 'navigation stopped by the site policy', { tabId: tab.tabId, popup });
          if (this.closing === undefined)
            this.send({ type: 'navigation_blocked', tabId: tab.tabId, url: url.slice(0, 8192), popup });
        },
        download: (report) => {
          if (this.closing === undefined) this.send({ type: 'download', ...report });
        },
      },
      downloads,
    );
    handle.connection.onClose((reason) => {
      this.log.write(this.closing === undefined ? 'warn' : 'info', 'browser connection closed', {
        reason,
        endpoint: handle.endpoint,
      });
      if (this.browser === browser) this.browser = undefined;
      // Reaps the process and the fresh profile of a launched browser that died on its own.
      void handle.close().catch(() => undefined);
    });
    try {
      await browser.init(this.options.connectTimeoutMs ?? 20_000);
      if (this.policy !== undefined) await browser.guard.set(this.policy);
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
    this.browser = browser;
    this.log.write('info', 'browser connected', { mode: this.options.mode, endpoint: handle.endpoint });
    return browser;
  }

  private send(message: DriverMessage): void {
    this.transport.send(message);
  }
}

function instanceIdFor(options: CdpDriverOptions): string {
  if (options.mode === 'launch' && options.userDataDir === undefined)
    return randomBytes(12).toString('base64url');
  // Stable per browser profile or endpoint, so the daemon can match a reconnecting driver to its tabs.
  const key = [options.mode, options.userDataDir ?? '', options.port ?? '', options.wsUrl ?? ''].join('|');
  return createHash('sha256').update(key).digest('base64url').slice(0, 22);
}
