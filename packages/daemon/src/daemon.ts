/**
 * createDaemon(opts): the daemon's object graph — sessions, clients, drivers, pending requests, element
 * handles, launchers, pairing codes — built once and shared by every route (http/) and action
 * (actions/). Pure: no environment, no files, no listener; http/server.ts puts the HTTP shell around it.
 */
import { Downloads } from './files/downloads';
import { DEFAULT_DOWNLOAD_MAX_BYTES } from '@bproxy/protocol';
import { DEFAULT_UPLOAD_MAX_BYTES } from './files/allowed-folders';
import { SitePolicyGate, memoryPolicy } from './policy/site-policy';
import { navigationBlocked, watchNavigation } from './policy/enforce';
import { NavGuardPush } from './policy/blocked';
import { ApprovalBook } from './approvals/book';
import { downloadGate } from './approvals/download-gate';
import { ActivityLog } from './logs/activity';
import { BrowserState } from './browsers/browser-state';
import { ClientRegistry } from './browsers/clients';
import { systemClock, type Clock } from './clock';
import { DriverConnections } from './browsers/drivers';
import { forgetRestartedBrowser } from './actions/browser-restart';
import { ElementHandles } from './sessions/element-handles';
import { IdleExit } from './idle-exit';
import { Launchers } from './browsers/launchers';
import type { Logger } from './logs/logger';
import { PairingCodes } from './pairing/pairing';
import { MAX_PENDING, ForwardedRequests } from './browsers/forwarded-requests';
import type { CommandRouteDeps } from './actions/types';
import { userRequestHandler } from './actions/user-requests';
import type { ServerOptions } from './server-options';
import { SessionRegistry } from './sessions/sessions';
import { TabQueues } from './sessions/tab-queues';
import { TraceRing } from './logs/traces';
import { DEFAULT_NETWORK_SETTINGS } from './observe/network-settings';
import { NO_SECRETS } from './actions/secret-fill';

/** What the HTTP shell shares with the graph: the port actually bound, and whether it is stopping. */
export interface DaemonState {
  port: number;
  shuttingDown: boolean;
}

export interface Daemon {
  readonly deps: CommandRouteDeps;
  readonly codes: PairingCodes;
  readonly state: DaemonState;
}

function elementHandles(clock: Clock, logger: Logger): ElementHandles {
  return new ElementHandles(() => clock.monotonic(), {
    mint: (e) => logger.info({ event: 'handle_mint', ...e }),
    resolve: (e) => logger.info({ event: 'handle_resolve', ...e }),
    invalidate: (e) => logger.info({ event: 'handle_invalidate', ...e }),
  });
}

function forwardedRequests(clock: Clock, logger: Logger): ForwardedRequests {
  return new ForwardedRequests(
    () => clock.monotonic(),
    {
      timeout: (id, elapsed, stage) => logger.info({ id, event: 'timeout', stage, elapsed_ms: elapsed }),
      replay: () => undefined, // logged by DriverConnections with the client label
      late: (id, client) => logger.debug({ id, event: 'late_answer', ws_client: client }),
    },
    MAX_PENDING,
    () => clock.now(),
  );
}

/** The browser side: who is connected, what is pending with them, and the browsers the daemon starts. */
function browserGraph(opts: ServerOptions, clock: Clock, sessions: SessionRegistry, graceMs: number) {
  const { logger } = opts;
  const clients = new ClientRegistry(clock);
  const handles = elementHandles(clock, logger);
  const pending = forwardedRequests(clock, logger);
  const activity = new ActivityLog(() => clock.now());
  const browserState = new BrowserState(sessions, clients, activity);
  const downloads = new Downloads({
    sessions,
    tmpRoot: opts.tmpRoot,
    downloadMaxBytes: opts.downloadMaxBytes ?? DEFAULT_DOWNLOAD_MAX_BYTES,
  });
  const drivers = new DriverConnections({
    downloads,
    clients,
    pending,
    sessions,
    handles,
    logger,
    graceMs,
    browserState,
    debuggerIdleMs: opts.debuggerIdleMs ?? null,
  });
  const launchers = new Launchers(opts.launchers ?? [], {
    clients,
    drivers,
    sessions,
    pending,
    logger,
    clock,
    browserIdleMs: opts.browserIdleMs ?? null,
  });
  sessions.onTabsChanged = (clientKey) => launchers.tabsChanged(clientKey);
  return { clients, handles, pending, activity, browserState, drivers, launchers, downloads };
}

export function createDaemon(opts: ServerOptions): Daemon {
  const clock = opts.clock ?? systemClock;
  const state: DaemonState = { port: opts.port, shuttingDown: false };
  const graceMs = opts.reconnectGraceMs ?? 15_000;
  const sessions = new SessionRegistry(opts.pacingOverride ?? 'human');
  const browsers = browserGraph(opts, clock, sessions, graceMs);
  const codes = new PairingCodes(clock);
  const deps: CommandRouteDeps = {
    ...browsers,
    sessions,
    queues: new TabQueues(),
    idleExit: opts.idleExit ? new IdleExit(clock, opts.idleExit.afterMs, opts.idleExit.onIdle) : null,
    traces: new TraceRing(200),
    logger: opts.logger,
    clock,
    random: opts.random ?? Math.random,
    graceMs,
    tmpRoot: opts.tmpRoot,
    files: {
      allowed: opts.allowedFolders ?? [],
      uploadMaxBytes: opts.uploadMaxBytes ?? DEFAULT_UPLOAD_MAX_BYTES,
    },
    networkSettings: opts.networkSettings ?? DEFAULT_NETWORK_SETTINGS,
    policy: new SitePolicyGate(opts.sitePolicy ?? memoryPolicy()),
    approvals: new ApprovalBook(opts.random ?? Math.random, { now: () => clock.now() }),
    startedMono: clock.monotonic(),
    port: () => state.port,
    paired: () => opts.extensionTokens.get() !== null,
    issuePairingCode: (kind) => codes.issue(kind),
    secrets: { read: opts.secrets ?? NO_SECRETS, used: [] },
  };
  browsers.browserState.watchApprovals(deps.approvals);
  browsers.drivers.userRequests = userRequestHandler(deps);
  browsers.drivers.browserRestarted = (record) => forgetRestartedBrowser(deps, record);
  browsers.drivers.tabMoved = (tab) => watchNavigation(deps, tab);
  browsers.drivers.navigationBlocked = (key, msg) => navigationBlocked(deps, key, msg);
  // The drivers stop navigations to refused origins in the browser: told the policy on every change.
  const guard = new NavGuardPush(browsers.clients, () => deps.policy.inForce());
  deps.policy.syncGuard = () => guard.sync();
  browsers.browserState.afterFlush = () => guard.sync();
  browsers.downloads.gate = downloadGate(deps);
  return { deps, codes, state };
}
