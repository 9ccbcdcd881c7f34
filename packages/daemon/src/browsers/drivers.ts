/**
 * Driver connections, whatever carries them: the handshake (hello → welcome, PROTOCOL_VERSION checked),
 * app-level ping, navigation, tab-opened (opened-tabs.ts) and tab-closed pushes, answers to forwarded
 * requests, replay of pending requests on (re)connect, and what a disconnect means (epochs forgotten;
 * after a grace period, pending requests fail and a CDP browser's tabs are dropped). Handlers are
 * attached synchronously, before any await, so no early message is lost.
 */
import type { Downloads } from '../files/downloads';
import {
  BPROXY_VERSION,
  DriverMessageSchema,
  makeError,
  PROTOCOL_VERSION,
  versionSkew,
  formatIssues,
  type DriverMessage,
  type HelloMessage,
  type NavigationBlockedMessage,
  type BproxyError,
  type UserResult,
  type UserRequest,
  type SessionId,
} from '@bproxy/protocol';
import type { BrowserState } from './browser-state';
import type { ClientRecord, ClientRegistry } from './clients';
import { ElementHandles } from '../sessions/element-handles';
import type { Logger } from '../logs/logger';
import { registerOpenedTab } from '../sessions/opened-tabs';
import type { ForwardedRequests } from './forwarded-requests';
import type { DriverLink } from '../server-options';
import type { SessionRegistry, TabRecord } from '../sessions/sessions';

function responseId(raw: unknown): string | null {
  if (raw === null || typeof raw !== 'object') return null;
  const { type, id } = raw as Record<string, unknown>;
  return type === 'response' && typeof id === 'string' ? id : null;
}

/** Answers what the user asked for through the browser's UI (user-requests.ts). */
export type UserRequestHandler = (
  record: ClientRecord,
  request: UserRequest,
) => Promise<{ ok: true; result: UserResult } | { ok: false; error: BproxyError }>;

export interface DriverDeps {
  /** Told about (re)connections and tabs that closed, to push the sessions each browser holds. */
  browserState?: BrowserState;
  clients: ClientRegistry;
  pending: ForwardedRequests;
  sessions: SessionRegistry;
  handles: ElementHandles;
  logger: Logger;
  graceMs: number;
  helloTimeoutMs?: number;
  /** Files the downloads drivers report (files/downloads.ts). */
  downloads?: Downloads;
  /** Told to extensions: how long a driven tab keeps the debugger with no action (null: for ever). */
  debuggerIdleMs?: number | null;
}

/** Where a driver connection comes from: a socket's peer, or a launcher of the daemon (for a session). */
export interface DriverMeta {
  remote: string;
  launcher?: string;
  session?: SessionId;
}

/** One link being accepted: its record once the hello was good. */
interface Link {
  readonly transport: DriverLink;
  readonly meta: DriverMeta;
  record: ClientRecord | null;
  readonly resolve: (record: ClientRecord | null) => void;
  helloTimer: NodeJS.Timeout | undefined;
}

export class DriverConnections {
  private readonly open = new Set<DriverLink>();
  private readonly graceTimers = new Map<string, NodeJS.Timeout>();
  /** Set once the command graph exists (daemon.ts); until then user requests are refused. */
  userRequests: UserRequestHandler | null = null;
  /**
   * Told when a browser came back after a restart (its hello names another run): its tabs of the last
   * run are gone. Set with the command graph (daemon.ts), which forgets them and their shared sessions.
   */
  browserRestarted: ((record: ClientRecord) => void) | null = null;
  /** Told when a session's tab committed a navigation or was opened by its page (the site policy). */
  tabMoved: ((tab: TabRecord) => void) | null = null;
  /** Told when a driver stopped a navigation the site policy refuses (policy/enforce.ts). */
  navigationBlocked: ((clientKey: string, msg: NavigationBlockedMessage) => void) | null = null;

  constructor(private readonly deps: DriverDeps) {}

  get count(): number {
    return this.open.size;
  }

  /**
   * Takes a new driver transport. Resolves with its client record after a valid hello, or null if the
   * connection closed or failed the handshake first.
   */
  accept(transport: DriverLink, meta: DriverMeta): Promise<ClientRecord | null> {
    this.open.add(transport);
    return new Promise((resolve) => {
      const link: Link = { transport, meta, record: null, resolve, helloTimer: undefined };
      link.helloTimer = setTimeout(() => {
        if (link.record) return;
        transport.send({ type: 'error', error: makeError('BAD_REQUEST', 'expected a hello message first') });
        transport.close('hello_timeout');
      }, this.deps.helloTimeoutMs ?? 5_000);
      transport.onmessage = (raw: unknown) => this.receive(link, raw);
      transport.onclose = (reason: string) => {
        clearTimeout(link.helloTimer);
        this.open.delete(transport);
        if (!link.record) return resolve(null);
        this.disconnected(link.record, transport, reason);
      };
    });
  }

  /** One message on a link: read against the protocol, then the hello or, after it, handled. */
  private receive(link: Link, raw: unknown): void {
    const parsed = DriverMessageSchema.safeParse(raw);
    if (!parsed.success) return this.unreadable(link, raw, formatIssues(parsed.error, raw));
    const msg = parsed.data;
    if (link.record) return this.handle(link.record, link.transport, msg);
    if (msg.type !== 'hello') {
      link.transport.send({
        type: 'error',
        error: makeError('BAD_REQUEST', 'expected a hello message first'),
      });
      link.transport.close('bad_message');
      return;
    }
    clearTimeout(link.helloTimer);
    link.record = this.handshake(link.transport, msg, link.meta);
    link.resolve(link.record);
  }

  /** A message outside the protocol: an answer still settles its request (as a driver error), else refused. */
  private unreadable(link: Link, raw: unknown, issues: string): void {
    const id = responseId(raw);
    if (link.record && id !== null) {
      // An answer we cannot read still settles its request, as a driver error rather than a timeout.
      this.deps.pending.resolve(link.record.key, id, {
        ok: false,
        error: makeError('DRIVER_ERROR', `answer outside the protocol: ${issues}`),
      });
      return;
    }
    this.deps.logger.warn({ event: 'ws_bad_message', ws_client: link.record?.label, issues });
    link.transport.send({
      type: 'error',
      error: makeError('BAD_REQUEST', `message outside the protocol: ${issues}`),
    });
  }

  closeAll(reason: string): void {
    for (const t of [...this.open]) t.close(reason);
    for (const timer of this.graceTimers.values()) clearTimeout(timer);
    this.graceTimers.clear();
  }

  private handshake(transport: DriverLink, hello: HelloMessage, meta: DriverMeta): ClientRecord | null {
    const { deps } = this;
    if (hello.protocolVersion !== PROTOCOL_VERSION) {
      transport.send({
        type: 'error',
        error: makeError(
          'PROTOCOL_MISMATCH',
          `this daemon speaks protocol ${PROTOCOL_VERSION}, the driver ${hello.protocolVersion}`,
        ),
      });
      transport.close('protocol_mismatch');
      return null;
    }
    // The extension's product version against ours, by the protocol's one rule: refused with a
    // message naming the older part and its fix. (A CDP driver is part of this very program.)
    const skew =
      hello.client.kind === 'extension' && hello.client.version !== undefined
        ? versionSkew(
            { part: 'extension', version: hello.client.version },
            { part: 'daemon', version: BPROXY_VERSION },
          )
        : null;
    if (skew !== null) {
      deps.logger.warn({
        event: 'ws_version_mismatch',
        extension: hello.client.version,
        daemon: BPROXY_VERSION,
      });
      transport.send({ type: 'error', error: makeError('VERSION_MISMATCH', skew.message) });
      transport.close('protocol_mismatch');
      return null;
    }
    const { record, displaced, restarted } = deps.clients.attach(hello, transport, {
      ...(meta.launcher === undefined ? {} : { launcher: meta.launcher }),
      ...(meta.session === undefined ? {} : { session: meta.session }),
    });
    if (restarted) {
      deps.logger.info({ event: 'browser_restarted', ws_client: record.label });
      deps.handles.forgetPages(record.key);
      this.browserRestarted?.(record);
    }
    const grace = this.graceTimers.get(record.key);
    if (grace) clearTimeout(grace);
    this.graceTimers.delete(record.key);
    if (displaced && displaced !== transport) displaced.close('replaced');
    const idle = deps.debuggerIdleMs ?? null;
    transport.send({
      type: 'welcome',
      protocolVersion: PROTOCOL_VERSION,
      clientName: record.name,
      ...(record.kind === 'extension' && idle !== null ? { debuggerIdleMs: idle } : {}),
      ...(record.kind === 'extension' && deps.downloads !== undefined
        ? { downloadMaxBytes: deps.downloads.maxBytes }
        : {}),
    });
    deps.browserState?.welcomed(record.key);
    deps.logger.info({
      event: 'ws_connect',
      ws_client: record.label,
      name: record.name,
      kind: record.kind,
      remote: meta.remote,
    });
    deps.pending.replay(record.key, (request) => {
      deps.logger.info({ event: 'replay', id: request.id, ws_client: record.label });
      transport.send({ type: 'request', request });
    });
    return record;
  }

  private handle(record: ClientRecord, transport: DriverLink, msg: DriverMessage): void {
    const { deps } = this;
    if (record.transport !== transport) return; // a displaced connection's last words
    switch (msg.type) {
      case 'hello':
        transport.send({ type: 'error', error: makeError('BAD_REQUEST', 'hello was already received') });
        return;
      case 'ping':
        transport.send({ type: 'pong', ts: msg.ts });
        return;
      case 'navigation': {
        deps.handles.onNavigation(ElementHandles.pageKey(record.key, msg.tabId), msg.url);
        const tab = deps.sessions.byRaw(record.key, msg.tabId);
        if (tab) {
          tab.url = msg.url;
          this.tabMoved?.(tab);
        }
        deps.logger.debug({ event: 'navigation', ws_client: record.label, tab: msg.tabId, cause: msg.cause });
        return;
      }
      case 'tab_closed':
        return this.tabClosed(record, msg);
      case 'tab_opened':
        registerOpenedTab(deps, record, msg);
        {
          const opened = deps.sessions.byRaw(record.key, msg.tabId);
          if (opened) this.tabMoved?.(opened);
        }
        // A tab opened after its action answered still joins the session's tab group now.
        deps.browserState?.changed();
        return;
      case 'download':
        deps.downloads?.onReport(record, msg);
        return;
      case 'response': {
        const outcome = msg.ok
          ? { ok: true as const, data: msg.data, ...(msg.news === undefined ? {} : { news: msg.news }) }
          : { ok: false as const, error: msg.error };
        deps.pending.resolve(record.key, msg.id, outcome);
        return;
      }
      case 'user_request':
        return this.userRequest(record, transport, msg);
      case 'navigation_blocked':
        this.navigationBlocked?.(record.key, msg);
        return;
    }
  }

  private tabClosed(record: ClientRecord, msg: Extract<DriverMessage, { type: 'tab_closed' }>): void {
    const { deps } = this;
    const tab = deps.sessions.byRaw(record.key, msg.tabId);
    deps.handles.forgetTabPage(ElementHandles.pageKey(record.key, msg.tabId));
    if (!tab) return;
    deps.handles.invalidateTab(tab.session, tab.handle, 'tab_closed');
    const why =
      msg.reason === 'browser_gone' ? 'was lost when its browser went away' : 'was closed in the browser';
    deps.sessions.removeTab(tab, why);
    deps.browserState?.changed();
  }

  /** What the user asked for in the browser's UI, answered on the same connection if it is still the one. */
  private userRequest(
    record: ClientRecord,
    transport: DriverLink,
    msg: Extract<DriverMessage, { type: 'user_request' }>,
  ): void {
    const handler = this.userRequests;
    const answer = handler
      ? handler(record, msg.request)
      : Promise.resolve({
          ok: false as const,
          error: makeError('SHUTTING_DOWN', 'the daemon is not ready for requests from the browser'),
        });
    void answer.then((outcome) => {
      if (record.transport !== transport) return;
      transport.send(
        outcome.ok
          ? { type: 'user_answer', requestId: msg.requestId, ok: true, result: outcome.result }
          : { type: 'user_answer', requestId: msg.requestId, ok: false, error: outcome.error },
      );
    });
  }

  private disconnected(record: ClientRecord, transport: DriverLink, reason: string): void {
    const { deps } = this;
    if (!deps.clients.detach(record.key, transport)) return; // displaced: the new connection owns the record
    deps.handles.forgetPages(record.key);
    deps.logger.info({ event: 'ws_disconnect', ws_client: record.label, reason });
    const timer = setTimeout(() => {
      this.graceTimers.delete(record.key);
      if (record.transport !== null) return;
      deps.pending.failClient(
        record.key,
        makeError('BROWSER_DISCONNECTED', `browser "${record.name}" disconnected and did not come back`),
      );
      if (record.kind === 'cdp') {
        // A CDP browser that went away does not come back with the same tabs: forget them.
        for (const tab of deps.sessions.tabsOfClient(record.key)) {
          deps.handles.invalidateTab(tab.session, tab.handle, 'browser_gone');
          deps.sessions.removeTab(
            tab,
            `was lost when browser "${record.name}" disconnected and did not come back`,
          );
        }
        deps.clients.remove(record.key);
      }
    }, deps.graceMs);
    timer.unref();
    this.graceTimers.set(record.key, timer);
  }
}
