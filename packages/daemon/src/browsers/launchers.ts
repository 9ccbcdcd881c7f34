/**
 * Browsers the daemon starts itself: the embedded Chromium, an attached Chrome, a remote endpoint
 * shared by every session, or a farm that hands out one browser per session. Started on first use and
 * again after they went away; concurrent callers share one start. The daemon also ends what it
 * started: a launched browser or a session's farm browser closes after the browser-idle period without
 * a tab (browser-idle.ts), and a session's farm browser closes with its session. Attached and shared
 * remote browsers are never closed, and neither is an extension (it is not started here at all).
 */
import { randomBytes } from 'node:crypto';
import { makeError, type ErrorCode, type SessionId } from '@bproxy/protocol';
import type { ClientRecord, ClientRegistry } from './clients';
import { IdleBrowsers } from './browser-idle';
import type { Clock } from '../clock';
import type { DriverConnections } from './drivers';
import type { Logger } from '../logs/logger';
import type { ForwardedRequests } from './forwarded-requests';
import type { BrowserLauncher } from '../server-options';
import type { SessionRegistry } from '../sessions/sessions';

/** Longest a browser start may take (a remote connect is further bounded by the request's deadline). */
const START_TIMEOUT_MS = 20_000;

/** Why no browser could be had; the code is the catalogue's. */
export class BrowserStartError extends Error {
  override readonly name = 'BrowserStartError';
  constructor(
    readonly code: Extract<ErrorCode, 'BROWSER_UNAVAILABLE' | 'TOO_MANY_BROWSERS'>,
    message: string,
  ) {
    super(message);
  }
}

export interface LauncherDeps {
  clients: ClientRegistry;
  drivers: DriverConnections;
  sessions: SessionRegistry;
  pending: ForwardedRequests;
  logger: Logger;
  clock: Clock;
  browserIdleMs: number | null;
}

/** A browser this daemon started, until it is gone: its name for the log, and its stop. */
interface StartedEntry {
  /** Its client's key (null: it never became a client). */
  readonly key: string | null;
  readonly name: string;
  readonly stop: () => Promise<void>;
  stopping?: Promise<void>;
}

export class Launchers {
  private readonly starting = new Map<string, Promise<ClientRecord>>();
  /** Every browser started and not yet known to be gone. */
  private readonly started = new Set<StartedEntry>();
  /** Sessions whose farm browser is being started, per launcher: they count against its cap. */
  private readonly startingFor = new Map<string, Set<SessionId>>();
  readonly idle: IdleBrowsers;

  constructor(
    private readonly list: readonly BrowserLauncher[],
    private readonly deps: LauncherDeps,
  ) {
    this.idle = new IdleBrowsers({
      clock: deps.clock,
      afterMs: deps.browserIdleMs,
      closable: (key) => {
        const record = deps.clients.get(key);
        return record !== undefined && record.transport !== null && this.closable(record);
      },
      busy: (key) => deps.sessions.tabsOfClient(key).length > 0 || deps.pending.hasEntriesFor(key),
      onIdle: (key) => {
        const record = deps.clients.get(key);
        if (record) this.release(record, 'idle');
      },
    });
  }

  names(): string[] {
    return this.list.map((l) => l.name);
  }

  has(name: string): boolean {
    return this.list.some((l) => l.name === name);
  }

  /** A launcher that gives every session its own browser: `--browser NAME` means "mine". */
  isPerSession(name: string | undefined): boolean {
    return this.find(name)?.kind === 'per-session';
  }

  /** The farm browsers open (or opening) now and the cap, when a launcher is per-session. */
  remoteBrowsers(): { open: number; max: number } | undefined {
    for (const farm of this.list)
      if (farm.kind === 'per-session') return { open: this.openFor(farm), max: farm.maxBrowsers };
    return undefined;
  }

  /**
   * The connected client of a launcher (by name, or the first), starting it when needed; a per-session
   * launcher's client is the session's own. Throws a BrowserStartError saying why none could be had.
   */
  async ensure(
    name: string | undefined,
    owner: () => SessionId,
    deadlineMono: number,
  ): Promise<ClientRecord | null> {
    const launcher = this.find(name);
    if (!launcher) return null;
    const session = launcher.kind === 'per-session' ? owner() : undefined;
    const live = this.deps.clients
      .connected()
      .find((c) => c.launcher === launcher.name && c.session === session);
    if (live) return live;
    const key = session === undefined ? launcher.name : `${launcher.name}/${session}`;
    const inFlight = this.starting.get(key);
    if (inFlight) return inFlight;
    if (session !== undefined && launcher.kind === 'per-session') this.admit(launcher, session);
    const start = this.start(launcher, session, deadlineMono).finally(() => {
      this.starting.delete(key);
      if (session !== undefined) this.startingFor.get(launcher.name)?.delete(session);
    });
    this.starting.set(key, start);
    return start;
  }

  /** Whether the daemon may close this client's browser (it opened it, and it is not shared). */
  closable(record: ClientRecord): boolean {
    const kind = this.find(record.launcher)?.kind;
    return record.launcher !== undefined && (kind === 'launched' || kind === 'per-session');
  }

  /** Whether this client's browser runs elsewhere (a remote endpoint or a farm): paths here mean nothing there. */
  isRemote(record: ClientRecord): boolean {
    const kind = this.find(record.launcher)?.kind;
    return kind === 'remote' || kind === 'per-session';
  }

  /**
   * Whether this client's browser is one bproxy launched for agents (the embedded Chromium, its own
   * profile): approvals' built-in defaults are the launched browser's there. The user's Chrome, an
   * attached Chrome, a shared remote endpoint and a farm's browsers may hold a person's data: no.
   */
  launchedForAgents(record: ClientRecord): boolean {
    return (
      record.kind === 'cdp' &&
      record.launcher !== undefined &&
      this.find(record.launcher)?.kind === 'launched'
    );
  }

  /**
   * Whether the daemon files this client's downloads: a browser it launched (its driver stages them), or
   * the user's own Chrome (the extension has Chrome write a session tab's downloads where the daemon
   * takes them from).
   */
  filesDownloads(record: ClientRecord): boolean {
    if (record.kind === 'extension') return true;
    return record.launcher !== undefined && this.find(record.launcher)?.kind === 'launched';
  }

  /** Whether this client's tabs may load file: URLs: a browser the daemon launched with --allow-file-urls. */
  allowsFileUrls(record: ClientRecord): boolean {
    if (record.launcher === undefined) return false;
    const launcher = this.find(record.launcher);
    return launcher?.kind === 'launched' && launcher.allowFileUrls === true;
  }

  /** Re-evaluates a browser's idle countdown after its tabs changed. */
  tabsChanged(clientKey: string): void {
    this.idle.check(clientKey);
  }

  /** Closes the browsers that belonged to a session (its farm browser), once its tabs are closed. */
  releaseSession(session: SessionId): void {
    for (const record of this.deps.clients.all())
      if (record.session === session) this.release(record, 'session_closed');
  }

  /**
   * Closes a browser the daemon opened: the client is forgotten at once (no grace period: nothing of
   * it is coming back) and its driver stopped, which closes a launched browser or drops the farm's
   * connection (the farm then ends that browser).
   */
  release(record: ClientRecord, reason: 'idle' | 'session_closed'): void {
    if (!this.closable(record)) return;
    this.idle.forget(record.key);
    this.deps.clients.remove(record.key);
    this.deps.pending.failClient(
      record.key,
      makeError('BROWSER_DISCONNECTED', `browser "${record.name}" was closed (${reason.replace('_', ' ')})`),
    );
    this.deps.logger.info({ event: 'browser_close', browser: record.name, reason });
    record.transport?.close(reason === 'idle' ? 'browser_idle' : 'session_closed');
    for (const entry of this.started) if (entry.key === record.key) void this.stopEntry(entry);
  }

  /**
   * Stops every browser this daemon started and waits until each is gone (exited, its folder removed)
   * — at most `boundMs` in all: a browser still going then is logged and left to its own close, so
   * that a shutdown can never hang on one.
   */
  async stopAll(boundMs: number): Promise<void> {
    const waits = [...this.started].map((entry) => this.stopEntry(entry));
    if (waits.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<'bound'>((resolve) => (timer = setTimeout(() => resolve('bound'), boundMs)));
    const settled = await Promise.race([Promise.allSettled(waits).then(() => 'stopped' as const), bound]);
    clearTimeout(timer);
    if (settled === 'bound') {
      const browsers = [...this.started].map((entry) => entry.name);
      this.deps.logger.warn({ event: 'browser_stop_timeout', browsers, bound_ms: boundMs });
    }
  }

  /** Starts (once) the stop of a started browser; it leaves the list when it settled. */
  private stopEntry(entry: StartedEntry): Promise<void> {
    entry.stopping ??= entry
      .stop()
      .catch((error: unknown) => {
        const why = error instanceof Error ? error.message : String(error);
        this.deps.logger.warn({ event: 'browser_stop_failed', browser: entry.name, err: why });
      })
      .finally(() => this.started.delete(entry));
    return entry.stopping;
  }

  private find(name: string | undefined): BrowserLauncher | undefined {
    return name === undefined ? this.list[0] : this.list.find((l) => l.name === name);
  }

  private openFor(launcher: BrowserLauncher): number {
    const connected = this.deps.clients
      .connected()
      .filter((c) => c.launcher === launcher.name && c.session !== undefined).length;
    return connected + (this.startingFor.get(launcher.name)?.size ?? 0);
  }

  /** Counts a session's farm browser against the cap before its start, so two opens cannot both pass. */
  private admit(launcher: BrowserLauncher & { kind: 'per-session' }, session: SessionId): void {
    const max = launcher.maxBrowsers;
    if (this.openFor(launcher) >= max) {
      throw new BrowserStartError(
        'TOO_MANY_BROWSERS',
        `all ${max} remote browsers of "${launcher.name}" are in use by other sessions`,
      );
    }
    let starting = this.startingFor.get(launcher.name);
    if (starting === undefined) this.startingFor.set(launcher.name, (starting = new Set()));
    starting.add(session);
  }

  private async start(
    launcher: BrowserLauncher,
    session: SessionId | undefined,
    deadlineMono: number,
  ): Promise<ClientRecord> {
    const name = session === undefined ? launcher.name : `${launcher.name}-${session}`;
    // A farm may queue a connection for as long as it likes: the agent's deadline is the bound.
    const remote = launcher.kind === 'remote' || launcher.kind === 'per-session';
    const left = Math.floor(deadlineMono - this.deps.clock.monotonic());
    const connectTimeoutMs = remote ? Math.max(1, Math.min(START_TIMEOUT_MS, left)) : START_TIMEOUT_MS;
    this.deps.logger.info({ event: 'browser_launch', browser: name, session });
    let record: ClientRecord | null;
    try {
      const started = await launcher.start({
        name,
        connectTimeoutMs,
        ...(session === undefined ? {} : { instanceId: randomBytes(12).toString('base64url') }),
      });
      record = await this.deps.drivers.accept(started.link, {
        remote: 'in-process',
        launcher: launcher.name,
        ...(session === undefined ? {} : { session }),
      });
      const entry: StartedEntry = { key: record?.key ?? null, name, stop: () => started.stop() };
      this.started.add(entry);
      if (record === null) void this.stopEntry(entry);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      this.deps.logger.warn({ event: 'browser_launch_failed', browser: name, err: why });
      throw new BrowserStartError('BROWSER_UNAVAILABLE', `browser "${name}" could not be started: ${why}`);
    }
    if (record === null)
      throw new BrowserStartError('BROWSER_UNAVAILABLE', `browser "${name}" went away before it was ready`);
    // The session closed while its browser was starting: nothing will ever use it.
    if (session !== undefined && this.deps.sessions.get(session) === undefined) {
      this.release(record, 'session_closed');
      throw new BrowserStartError(
        'BROWSER_UNAVAILABLE',
        `session ${session} closed while its browser started`,
      );
    }
    this.idle.check(record.key);
    return record;
  }
}
